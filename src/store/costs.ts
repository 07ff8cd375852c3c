/**
 * Formula costs at other prices: one formula at an instant, the cost-changes report, and the formulas
 * a price change moves (the `formula.cost_changed` event). The arithmetic is src/domain/recost.ts and
 * src/domain/cost-report.ts.
 */
import type { Database } from "bun:sqlite";
import { changesSince, movesOf, priceFrom, withLines, type FormulaCostMove, type MoveLine, type ReportFormula, type ReportFormulaRow, type ReportLine } from "../domain/cost-report.ts";
import { recost, type CostChange, type FormulaCost } from "../domain/recost.ts";
import { formulaFootprint } from "./footprints.ts";
import { requireFormula } from "./formulas.ts";
import { currentPrices, pricesInEffect } from "./price-history.ts";

export type { FormulaCostMove } from "../domain/cost-report.ts";

/**
 * A formula recosted at the prices in effect at `at` (current prices when `at` is null; `shownAt`
 * is the instant the answer names). Throws NotFoundError for an unknown id.
 * @example formulaCost(db, 1, "broiler-starter", "2026-10-01T00:00:00.000Z", "2026-10-01T00:00:00.000Z").cost
 */
export function formulaCost(db: Database, workspaceId: number, id: string, at: string | null, shownAt: string): FormulaCost {
  const formula = requireFormula(db, workspaceId, id);
  const prices = at === null ? currentPrices(db, workspaceId, id) : pricesInEffect(db, workspaceId, at, id);
  // The footprint is today's whatever `at` is: footprints have no history.
  return { ...recost(formula, shownAt, priceFrom(prices)), ...formulaFootprint(db, workspaceId, id) };
}

/** Saved formulas with their composition (and each row's current price), in id order. */
function savedFormulas(db: Database, workspaceId: number): ReportFormula[] {
  const formulas = db
    .query("SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost FROM formulas WHERE workspace_id = ? ORDER BY id")
    .all(workspaceId) as ReportFormulaRow[];
  // Current prices from one map, not a join per line: a third of the report's time on 2,400 lines.
  const lines = db
    .query("SELECT formula_id, ingredient, percent, amount, price, cost FROM formula_lines WHERE workspace_id = ? ORDER BY formula_id, position")
    .values(workspaceId) as ReportLine[];
  return withLines(formulas, lines, currentPrices(db, workspaceId));
}

/**
 * Every formula whose cost now differs from its cost at `since` (null: from its saved figures), with
 * the rows that moved it; largest relative move first.
 * @example costChanges(db, 1, null)[0] // { id, name, ..., costThen, costNow, change, changePercent, drivers }
 */
export function costChanges(db: Database, workspaceId: number, since: string | null): CostChange[] {
  const formulas = savedFormulas(db, workspaceId);
  return changesSince(formulas, since === null ? null : priceFrom(pricesInEffect(db, workspaceId, since)));
}

/**
 * The formulas whose cost at current prices moves (at 2 decimals) when one ingredient's price goes
 * from `oldPrice` to its current price, in id order: the `formulas` of `formula.cost_changed`.
 * Call after the price is written, inside its transaction. One statement, rows as arrays: it runs
 * inside a PUT.
 * @example formulasMovedBy(db, 1, "Maize", 228) // [{ id: "broiler-starter", name, old_cost: 612.44, new_cost: 618.9 }]
 */
export function formulasMovedBy(db: Database, workspaceId: number, ingredient: string, oldPrice: number): FormulaCostMove[] {
  const lines = db
    .query(
      `SELECT l.formula_id, f.name, f.batch_size, l.percent, l.ingredient, coalesce(i.price, l.price)
       FROM formula_lines l JOIN formulas f ON f.workspace_id = l.workspace_id AND f.id = l.formula_id
         LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
       WHERE l.workspace_id = ?1 AND l.formula_id IN (SELECT formula_id FROM formula_lines WHERE workspace_id = ?1 AND ingredient = ?2)
       ORDER BY l.formula_id, l.position`,
    )
    .values(workspaceId, ingredient) as MoveLine[];
  return movesOf(lines, ingredient, oldPrice);
}
