/** PostgreSQL's twins of ../costs.ts: the rows are read here, the arithmetic is src/domain/cost-report.ts. */
import type { SQL } from "bun";
import { changesSince, movesOf, priceFrom, withLines, type FormulaCostMove, type MoveLine, type ReportFormulaRow, type ReportLine } from "../../domain/cost-report.ts";
import { recost, type CostChange, type FormulaCost } from "../../domain/recost.ts";
import { formulaFootprint } from "./footprints.ts";
import { requireFormula } from "../formulas.ts";
import { currentPrices, pricesInEffect } from "./price-history.ts";

/** A formula recosted at the prices in effect at `at` (now when null). @example (await formulaCost(sql, 1, "broiler-starter", null, now)).cost */
export async function formulaCost(sql: SQL, workspaceId: number, id: string, at: string | null, shownAt: string): Promise<FormulaCost> {
  const formula = await requireFormula(sql, workspaceId, id);
  const prices = at === null ? await currentPrices(sql, workspaceId, id) : await pricesInEffect(sql, workspaceId, at, id);
  // The footprint is today's whatever `at` is: footprints have no history.
  return { ...recost(formula, shownAt, priceFrom(prices)), ...(await formulaFootprint(sql, workspaceId, id)) };
}

/** Every formula whose cost moved since `since` (null: its saved figures), largest move first. @example (await costChanges(sql, 1, null))[0] */
export async function costChanges(sql: SQL, workspaceId: number, since: string | null): Promise<CostChange[]> {
  const rows = (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost" FROM formulas
    WHERE workspace_id = ${workspaceId} ORDER BY id`) as ReportFormulaRow[];
  const lines = (await sql`SELECT formula_id, ingredient, percent, amount, price, cost FROM formula_lines
    WHERE workspace_id = ${workspaceId} ORDER BY formula_id, position`.values()) as ReportLine[];
  const formulas = withLines(rows, lines, await currentPrices(sql, workspaceId));
  return changesSince(formulas, since === null ? null : priceFrom(await pricesInEffect(sql, workspaceId, since)));
}

/** The formulas one price change moves at 2 decimals, in id order; call after the price is written. @example await formulasMovedBy(tx, 1, "Maize", 228) */
export async function formulasMovedBy(sql: SQL, workspaceId: number, ingredient: string, oldPrice: number): Promise<FormulaCostMove[]> {
  const lines = (await sql`SELECT l.formula_id, f.name, f.batch_size, l.percent, l.ingredient, coalesce(i.price, l.price)
    FROM formula_lines l JOIN formulas f ON f.workspace_id = l.workspace_id AND f.id = l.formula_id
      LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
    WHERE l.workspace_id = ${workspaceId} AND l.formula_id IN (SELECT formula_id FROM formula_lines WHERE workspace_id = ${workspaceId} AND ingredient = ${ingredient})
    ORDER BY l.formula_id, l.position`.values()) as MoveLine[];
  return movesOf(lines, ingredient, oldPrice);
}
