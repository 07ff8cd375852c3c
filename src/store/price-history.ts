/**
 * The price history: one entry per change of an ingredient's price or stock status, written by the
 * same transaction as the change (docs/decisions.md#price-history-and-formula-costs). Each operation
 * written once over src/store/sqlite/price-history.ts (where entries go through an unindexed log) and
 * src/store/pg/price-history.ts.
 */
import { filterValues, stockFlags, type IngredientFilters, type PriceEntry } from "./ingredient-rows.ts";
import { requireIngredient } from "./ingredients.ts";
import { operation, statements } from "./op.ts";
import { pgPriceHistory } from "./pg/price-history.ts";
import type { HistoryRange, NewPriceEntry, PriceHistory, PriceHistoryEntry, PriceHistoryStatements } from "./price-rows.ts";
import { sqlitePriceHistory } from "./sqlite/price-history.ts";

export type { HistoryRange, PriceHistory, PriceHistoryEntry, PriceSource } from "./price-rows.ts";
export type { PricePoint } from "../domain/ingredient-events.ts";
export { FOLD_AT, FOLD_STEP, foldPriceLog, priceLogHasEntries } from "./sqlite/price-fold.ts";

/** The history's statements: also for an operation that sends an entry together with its own (./ingredient-changes.ts). */
export const history = statements<PriceHistoryStatements>(sqlitePriceHistory, pgPriceHistory);

/**
 * Append an entry for an ingredient of the workspace. Call inside the transaction that makes the change.
 * @example recordPrice(db, 1, "Maize", { price: 219, inStock: true, at: now, source: "api" })
 */
export const recordPrice = operation(function* (workspaceId: number, name: string, entry: NewPriceEntry) {
  yield* history.appendEntry(workspaceId, name, entry);
});

/**
 * An ingredient's current price and stock with its history, newest first. Throws NotFoundError.
 * @example priceHistory(db, 1, "Maize", { from: "2026-10-01T00:00:00.000Z" }).history[0] // { price, inStock, at, source }
 */
export const priceHistory = operation(function* (workspaceId: number, name: string, range: HistoryRange = {}) {
  const { category, price, inStock } = yield* requireIngredient.steps(workspaceId, name);
  const rows = yield* history.entries(workspaceId, name, range.from ?? null, range.to ?? null);
  const answer: PriceHistory = { name, category, price, inStock, history: stockFlags<PriceHistoryEntry>(rows) };
  return answer;
});

/**
 * The price list as it stood at `at`: ingredients whose first entry is at or before it, each with the
 * last price and stock recorded at or before it; today's category; list order. Filters apply to the
 * rows as shown (the stock status of then).
 * @example pricesAt(db, 1, "2026-10-01T00:00:00.000Z") // [{ name, price, inStock, category }]
 */
export const pricesAt = operation(function* (workspaceId: number, at: string, filters: IngredientFilters = {}) {
  return stockFlags<PriceEntry>(yield* history.listAt(workspaceId, at, ...filterValues(filters)));
});

/**
 * The price of each ingredient in effect at `at`, for costing: the last entry at or before it, else
 * the earliest entry (a formula's ingredient priced only later is costed at its first known price).
 * Only the ingredients of one formula when `formulaId` is given.
 * @example pricesInEffect(db, 1, "2026-10-01T00:00:00.000Z").get("Maize") // 221.5
 */
export const pricesInEffect = operation(function* (workspaceId: number, at: string, formulaId?: string) {
  return yield* history.pricesInEffect(workspaceId, at, formulaId ?? null);
});

/**
 * Current prices, for costing "now" (the current price is by definition the one in effect).
 * @example currentPrices(db, 1, "broiler-starter").get("Maize") // 228
 */
export const currentPrices = operation(function* (workspaceId: number, formulaId?: string) {
  return yield* history.currentPrices(workspaceId, formulaId ?? null);
});
