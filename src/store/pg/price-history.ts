/** PostgreSQL's statements for ../price-history.ts, and the twins of its reads; instants are ISO text compared byte by byte (COLLATE "C"). */
import type { SQL } from "bun";
import { filterValues, stockFlags, type IngredientFilters, type PriceEntry } from "../ingredient-rows.ts";
import type { PgStatements } from "../op.ts";
import type { HistoryRange, PriceHistory, PriceHistoryEntry, PriceHistoryStatements } from "../price-rows.ts";
import { requireIngredient } from "../ingredients.ts";
import { unmatchable } from "./text.ts";

export const pgPriceHistory: PgStatements<PriceHistoryStatements> = {
  appendEntry: async (sql, workspaceId, name, entry) => {
    await sql`INSERT INTO price_history (ingredient_id, price, in_stock, at, source)
      SELECT id, ${entry.price}, ${entry.inStock ? 1 : 0}, ${entry.at}, ${entry.source} FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  },
};

/** Current price and stock with the history, newest first. @example (await priceHistory(sql, 1, "Maize")).history[0] */
export async function priceHistory(sql: SQL, workspaceId: number, name: string, range: HistoryRange = {}): Promise<PriceHistory> {
  const { category, price, inStock } = await requireIngredient(sql, workspaceId, name);
  const from = range.from ?? null;
  const to = range.to ?? null;
  const rows = await sql`SELECT h.price, h.in_stock AS "inStock", h.at, h.source FROM price_history h
    JOIN ingredients i ON i.id = h.ingredient_id
    WHERE i.workspace_id = ${workspaceId} AND i.name = ${name} AND (${from}::text IS NULL OR h.at >= ${from}) AND (${to}::text IS NULL OR h.at < ${to})
    ORDER BY h.at DESC, h.id DESC`;
  return { name, category, price, inStock, history: stockFlags<PriceHistoryEntry>(rows) };
}

/** The price list as it stood at `at`, in list order. @example await pricesAt(sql, 1, "2026-10-01T00:00:00.000Z") */
export async function pricesAt(sql: SQL, workspaceId: number, at: string, filters: IngredientFilters = {}): Promise<PriceEntry[]> {
  const [category, inStock] = filterValues(filters);
  if (unmatchable(category)) return [];
  const rows = await sql`SELECT i.name, h.price, h.in_stock AS "inStock", i.category FROM ingredients i
    JOIN price_history h ON h.id = (SELECT id FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1)
    WHERE i.workspace_id = ${workspaceId} AND (${category}::text IS NULL OR i.category = ${category}) AND (${inStock}::int IS NULL OR h.in_stock = ${inStock})
    ORDER BY fb_nocase(i.name), i.name`;
  return stockFlags<PriceEntry>(rows);
}

/**
 * The price of each ingredient in effect at `at` (else its earliest entry), for costing; only one
 * formula's ingredients when `formulaId` is given.
 * @example (await pricesInEffect(sql, 1, "2026-10-01T00:00:00.000Z")).get("Maize") // 221.5
 */
export async function pricesInEffect(sql: SQL, workspaceId: number, at: string, formulaId?: string): Promise<Map<string, number>> {
  const only = formulaId ?? null;
  const rows = (await sql`SELECT i.name, coalesce(
      (SELECT price FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1),
      (SELECT price FROM price_history WHERE ingredient_id = i.id ORDER BY at, id LIMIT 1),
      i.price) AS price
    FROM ingredients i
    WHERE i.workspace_id = ${workspaceId}
      AND (${only}::text IS NULL OR i.name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ${workspaceId} AND formula_id = ${only}))`.values()) as [string, number][];
  return new Map(rows);
}

/** Current prices, for costing "now". @example (await currentPrices(sql, 1, "broiler-starter")).get("Maize") // 228 */
export async function currentPrices(sql: SQL, workspaceId: number, formulaId?: string): Promise<Map<string, number>> {
  const only = formulaId ?? null;
  const rows = (await sql`SELECT name, price FROM ingredients WHERE workspace_id = ${workspaceId}
    AND (${only}::text IS NULL OR name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ${workspaceId} AND formula_id = ${only}))`.values()) as [string, number][];
  return new Map(rows);
}
