/**
 * The price history: one entry per change of an ingredient's price or stock status, written by the
 * same transaction as the change (docs/decisions.md#price-history-and-formula-costs). Instants are the stored ISO
 * strings (UTC, milliseconds), so comparing them as text is comparing them in time.
 */
import type { Database } from "bun:sqlite";
import type { z } from "zod";
import type { priceHistoryResponse } from "../schemas/history.ts";
import type { IngredientFilters, PriceEntry } from "./ingredients.ts";
import { requireIngredient } from "./ingredients.ts";
import { filterValues, stockFlags } from "./ingredient-rows.ts";
import { repeatsPoint, type PricePoint } from "../domain/ingredient-events.ts";

/** `data` of GET /v1/prices/:name, as its schema documents it: newest entry first. */
export type PriceHistory = z.output<typeof priceHistoryResponse>["data"];
export type PriceHistoryEntry = PriceHistory["history"][number];
export type PriceSource = PriceHistoryEntry["source"];

export type { PricePoint } from "../domain/ingredient-events.ts";

/**
 * Append an entry for an ingredient of the workspace. Call inside the transaction that makes the change.
 * @example recordPrice(db, 1, "Maize", { price: 219, inStock: true, at: now, source: "api" })
 */
export function recordPrice(db: Database, workspaceId: number, name: string, entry: PricePoint & { at: string; source: PriceSource }): void {
  db.query(
    `INSERT INTO price_history (ingredient_id, price, in_stock, at, source)
     SELECT id, ?, ?, ?, ? FROM ingredients WHERE workspace_id = ? AND name = ?`,
  ).run(entry.price, entry.inStock ? 1 : 0, entry.at, entry.source, workspaceId, name);
}

/**
 * Record a change unless it repeats both price and stock (then nothing is written). True when written.
 * @example recordChange(db, 1, "Maize", before, { price: 219, inStock: true }, now, "import")
 */
export function recordChange(db: Database, workspaceId: number, name: string, before: PricePoint, after: PricePoint, at: string, source: PriceSource): boolean {
  if (repeatsPoint(before, after)) return false;
  recordPrice(db, workspaceId, name, { ...after, at, source });
  return true;
}

/** Bounds of a history listing: `from` inclusive, `to` exclusive; absent means open. */
export interface HistoryRange {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * An ingredient's current price and stock with its history, newest first. Throws NotFoundError.
 * @example priceHistory(db, 1, "Maize", { from: "2026-10-01T00:00:00.000Z" }).history[0] // { price, inStock, at, source }
 */
export function priceHistory(db: Database, workspaceId: number, name: string, range: HistoryRange = {}): PriceHistory {
  const { category, price, inStock } = requireIngredient(db, workspaceId, name);
  const rows = db
    .query(
      `SELECT h.price, h.in_stock AS inStock, h.at, h.source FROM price_history h
       JOIN ingredients i ON i.id = h.ingredient_id
       WHERE i.workspace_id = ?1 AND i.name = ?2 AND (?3 IS NULL OR h.at >= ?3) AND (?4 IS NULL OR h.at < ?4)
       ORDER BY h.at DESC, h.id DESC`,
    )
    .all(workspaceId, name, range.from ?? null, range.to ?? null) as (Omit<PriceHistoryEntry, "inStock"> & { inStock: number })[];
  return { name, category, price, inStock, history: stockFlags<PriceHistoryEntry>(rows) };
}

// The last entry at or before an instant: one backward step in price_history_by_ingredient.
const LAST_AT = (at: string) => `SELECT id FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1`;

/**
 * The price list as it stood at `at`: ingredients whose first entry is at or before it, each with the
 * last price and stock recorded at or before it; today's category; list order. Filters apply to the
 * rows as shown (the stock status of then).
 * @example pricesAt(db, 1, "2026-10-01T00:00:00.000Z") // [{ name, price, inStock, category }]
 */
export function pricesAt(db: Database, workspaceId: number, at: string, filters: IngredientFilters = {}): PriceEntry[] {
  const rows = db
    .query(
      `SELECT i.name, h.price, h.in_stock AS inStock, i.category FROM ingredients i
       JOIN price_history h ON h.id = (${LAST_AT("?2")})
       WHERE i.workspace_id = ?1 AND (?3 IS NULL OR i.category = ?3) AND (?4 IS NULL OR h.in_stock = ?4)
       ORDER BY i.name COLLATE NOCASE, i.name`,
    )
    .all(workspaceId, at, ...filterValues(filters)) as (Omit<PriceEntry, "inStock"> & { inStock: number })[];
  return stockFlags<PriceEntry>(rows);
}

/**
 * The price of each ingredient in effect at `at`, for costing: the last entry at or before it, else
 * the earliest entry (a formula's ingredient priced only later is costed at its first known price).
 * Only the ingredients of one formula when `formulaId` is given (a statement of its own: an
 * `?3 IS NULL OR …` condition would keep SQLite from using the formula's lines as the index probe).
 * @example pricesInEffect(db, 1, "2026-10-01T00:00:00.000Z").get("Maize") // 221.5
 */
export function pricesInEffect(db: Database, workspaceId: number, at: string, formulaId?: string): Map<string, number> {
  const rows = db
    .query(
      `SELECT i.name, coalesce(
         (SELECT price FROM price_history WHERE id = (${LAST_AT("?2")})),
         (SELECT price FROM price_history WHERE ingredient_id = i.id ORDER BY at, id LIMIT 1),
         i.price) AS price
       FROM ingredients i
       WHERE i.workspace_id = ?1 ${formulaId === undefined ? "" : "AND i.name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ?1 AND formula_id = ?3)"}`,
    )
    .values(...(formulaId === undefined ? [workspaceId, at] : [workspaceId, at, formulaId])) as [string, number][];
  return new Map(rows);
}

/**
 * Current prices, for costing "now" (the current price is by definition the one in effect).
 * @example currentPrices(db, 1, "broiler-starter").get("Maize") // 228
 */
export function currentPrices(db: Database, workspaceId: number, formulaId?: string): Map<string, number> {
  const rows = db
    .query(
      `SELECT name, price FROM ingredients
       WHERE workspace_id = ?1 ${formulaId === undefined ? "" : "AND name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ?1 AND formula_id = ?2)"}`,
    )
    .values(...(formulaId === undefined ? [workspaceId] : [workspaceId, formulaId])) as [string, number][];
  return new Map(rows);
}
