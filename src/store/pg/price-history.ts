/** PostgreSQL's statements for ../price-history.ts: one table, no log; instants are ISO text compared byte by byte (COLLATE "C"). */
import type { PgStatements } from "../op.ts";
import type { PriceEntry, Stocked } from "../ingredient-rows.ts";
import type { PriceHistoryEntry, PriceHistoryStatements } from "../price-rows.ts";
import { unmatchable } from "./text.ts";

export const pgPriceHistory: PgStatements<PriceHistoryStatements> = {
  appendEntry: async (sql, workspaceId, name, entry) => {
    await sql`INSERT INTO price_history (ingredient_id, price, in_stock, at, source)
      SELECT id, ${entry.price}, ${entry.inStock ? 1 : 0}, ${entry.at}, ${entry.source} FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  },
  entries: async (sql, workspaceId, name, from, to) =>
    (await sql`SELECT h.price, h.in_stock AS "inStock", h.at, h.source FROM price_history h
      JOIN ingredients i ON i.id = h.ingredient_id
      WHERE i.workspace_id = ${workspaceId} AND i.name = ${name} AND (${from}::text IS NULL OR h.at >= ${from}) AND (${to}::text IS NULL OR h.at < ${to})
      ORDER BY h.at DESC, h.id DESC`) as Stocked<PriceHistoryEntry>[],
  listAt: async (sql, workspaceId, at, category, inStock) => {
    if (unmatchable(category)) return [];
    return (await sql`SELECT i.name, h.price, h.in_stock AS "inStock", i.category FROM ingredients i
      JOIN price_history h ON h.id = (SELECT id FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1)
      WHERE i.workspace_id = ${workspaceId} AND (${category}::text IS NULL OR i.category = ${category}) AND (${inStock}::int IS NULL OR h.in_stock = ${inStock})
      ORDER BY fb_nocase(i.name), i.name`) as Stocked<PriceEntry>[];
  },
  pricesInEffect: async (sql, workspaceId, at, formulaId) => {
    const rows = (await sql`SELECT i.name, coalesce(
        (SELECT price FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1),
        (SELECT price FROM price_history WHERE ingredient_id = i.id ORDER BY at, id LIMIT 1),
        i.price) AS price
      FROM ingredients i
      WHERE i.workspace_id = ${workspaceId}
        AND (${formulaId}::text IS NULL OR i.name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ${workspaceId} AND formula_id = ${formulaId}))`.values()) as [string, number][];
    return new Map(rows);
  },
  currentPrices: async (sql, workspaceId, formulaId) => {
    const rows = (await sql`SELECT name, price FROM ingredients WHERE workspace_id = ${workspaceId}
      AND (${formulaId}::text IS NULL OR name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ${workspaceId} AND formula_id = ${formulaId}))`.values()) as [string, number][];
    return new Map(rows);
  },
};
