/**
 * Formula costs at other prices: one formula at an instant, the cost-changes report, the formulas a
 * price change moves (the `formula.cost_changed` event), and a formula's footprint. Each written once
 * over src/store/sqlite/costs.ts and src/store/pg/costs.ts; the arithmetic is src/domain/recost.ts,
 * src/domain/cost-report.ts and src/domain/footprint.ts.
 */
import { changesSince, movesOf, priceFrom, withLines } from "../domain/cost-report.ts";
import { footprintOf } from "../domain/footprint.ts";
import { recost } from "../domain/recost.ts";
import type { CostStatements } from "./cost-rows.ts";
import { requireFormula } from "./formulas.ts";
import { all, operation, statements } from "./op.ts";
import { pgCosts } from "./pg/costs.ts";
import { currentPrices, pricesInEffect } from "./price-history.ts";
import { sqliteCosts } from "./sqlite/costs.ts";

export type { FormulaCostMove } from "../domain/cost-report.ts";

const q = statements<CostStatements>(sqliteCosts, pgCosts);

function* footprint(workspaceId: number, id: string) {
  return footprintOf(yield* q.footprintLines(workspaceId, id));
}

/** A formula's footprint from its lines and today's `co2e` values (docs/decisions.md#carbon-footprint). @example formulaFootprint(db, 1, "broiler-starter") // { co2ePerTon: 612.3, co2eUnknown: [] } */
export const formulaFootprint = operation(footprint);

/**
 * A formula recosted at the prices in effect at `at` (current prices when `at` is null; `shownAt`
 * is the instant the answer names). Throws NotFoundError for an unknown id.
 * @example formulaCost(db, 1, "broiler-starter", "2026-10-01T00:00:00.000Z", "2026-10-01T00:00:00.000Z").cost
 */
export const formulaCost = operation(function* (workspaceId: number, id: string, at: string | null, shownAt: string) {
  const formula = yield* requireFormula.steps(workspaceId, id);
  const prices = at === null ? yield* currentPrices.steps(workspaceId, id) : yield* pricesInEffect.steps(workspaceId, at, id);
  // The footprint is today's whatever `at` is: footprints have no history.
  return { ...recost(formula, shownAt, priceFrom(prices)), ...(yield* footprint(workspaceId, id)) };
});

/**
 * Every formula whose cost now differs from its cost at `since` (null: from its saved figures), with
 * the rows that moved it; largest relative move first.
 * @example costChanges(db, 1, null)[0] // { id, name, ..., costThen, costNow, change, changePercent, drivers }
 */
export const costChanges = operation(function* (workspaceId: number, since: string | null) {
  // Current prices from one map, not a join per line: a third of the report's time on 2,400 lines.
  const [rows, lines, prices] = yield* all(q.reportFormulas(workspaceId), q.reportLines(workspaceId), currentPrices.steps(workspaceId));
  const formulas = withLines(rows, lines, prices);
  return changesSince(formulas, since === null ? null : priceFrom(yield* pricesInEffect.steps(workspaceId, since)));
});

/**
 * The formulas whose cost at current prices moves (at 2 decimals) when one ingredient's price goes
 * from `oldPrice` to its current price, in id order: the `formulas` of `formula.cost_changed`.
 * Call after the price is written, inside its transaction. One statement, rows as arrays: it runs
 * inside a PUT.
 * @example formulasMovedBy(db, 1, "Maize", 228) // [{ id: "broiler-starter", name, old_cost: 612.44, new_cost: 618.9 }]
 */
export const formulasMovedBy = operation(function* (workspaceId: number, ingredient: string, oldPrice: number) {
  return movesOf(yield* q.moveLines(workspaceId, ingredient), ingredient, oldPrice);
});
