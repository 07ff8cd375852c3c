/**
 * SQLite's statements for src/store/price-history.ts (docs/decisions.md#price-history-and-formula-costs).
 * Instants are the stored ISO strings (UTC, milliseconds), so comparing them as text is comparing them in time.
 *
 * Entries live in two tables: `price_history`, indexed by ingredient and instant, and `price_log`, where
 * a change appends its entry without touching an index (a page at a random place of that index, synced
 * with every PUT, cost a quarter of the PUT throughput). Once the log holds FOLD_AT entries, changes move
 * it into the history a step at a time (./price-fold.ts). For each ingredient every entry of the log was
 * recorded after every entry of the history, so between two entries at the same instant the log's is
 * the later one. Every read here takes both.
 */
import type { Database } from "bun:sqlite";
import type { Stocked } from "../ingredient-rows.ts";
import type { SqliteStatements } from "../op.ts";
import { maybeFoldStep } from "./price-fold.ts";
import type { PriceHistoryEntry, PriceHistoryStatements } from "../price-rows.ts";

export const sqlitePriceHistory: SqliteStatements<PriceHistoryStatements> = {
  appendEntry: (db, workspaceId, name, entry) => {
    const appended = db
      .query(
        `INSERT INTO price_log (ingredient_id, price, in_stock, at, source)
         SELECT id, ?, ?, ?, ? FROM ingredients WHERE workspace_id = ? AND name = ?`,
      )
      .run(entry.price, entry.inStock ? 1 : 0, entry.at, entry.source, workspaceId, name);
    if (appended.changes === 1) maybeFoldStep(db, Number(appended.lastInsertRowid));
  },
  entries: (db, workspaceId, name, from, to) => {
    const entries = (table: string, logged: 0 | 1) =>
      `SELECT price, in_stock, at, source, ${logged} AS logged, id FROM ${table}
       WHERE ingredient_id = (SELECT id FROM ingredients WHERE workspace_id = ?1 AND name = ?2) AND (?3 IS NULL OR at >= ?3) AND (?4 IS NULL OR at < ?4)`;
    return db
      .query(
        `SELECT price, in_stock AS inStock, at, source FROM (${entries("price_history", 0)} UNION ALL ${entries("price_log", 1)})
         ORDER BY at DESC, logged DESC, id DESC`,
      )
      .all(workspaceId, name, from, to) as Stocked<PriceHistoryEntry>[];
  },
  listAt: (db, workspaceId, at, category, inStock) => {
    const rows = db
      .query(
        `SELECT i.id, i.name, i.category, h.price, h.in_stock, h.at FROM ingredients i
         LEFT JOIN price_history h ON h.id = (${LAST_AT("?2")})
         WHERE i.workspace_id = ?1 AND (?3 IS NULL OR i.category = ?3)
         ORDER BY i.name COLLATE NOCASE, i.name`,
      )
      .values(workspaceId, at, category) as [number, string, string, number | null, number | null, string | null][];
    const logged = loggedLastAt(db, at);
    const list: ReturnType<PriceHistoryStatements["listAt"]> = [];
    for (const [id, name, category, price, stocked, entryAt] of rows) {
      const entry = later(historyEntry(price, stocked, entryAt), logged.get(id));
      // The stock filter applies to the stock status of then.
      if (entry === null || (inStock !== null && entry[1] !== inStock)) continue;
      list.push({ name, price: entry[0], inStock: entry[1], category });
    }
    return list;
  },
  // Only one formula's ingredients is a statement of its own: an `?3 IS NULL OR …` condition would keep
  // SQLite from using the formula's lines as the index probe.
  pricesInEffect: (db, workspaceId, at, formulaId) => {
    const lines = (ws: string, id: string) => `SELECT ingredient FROM formula_lines WHERE workspace_id = ${ws} AND formula_id = ${id}`;
    const rows = db
      .query(
        `SELECT i.id, i.name, i.price, h.price, h.in_stock, h.at FROM ingredients i LEFT JOIN price_history h ON h.id = (${LAST_AT("?2")})
         WHERE i.workspace_id = ?1 ${formulaId === null ? "" : `AND i.name IN (${lines("?1", "?3")})`}`,
      )
      .values(...(formulaId === null ? [workspaceId, at] : [workspaceId, at, formulaId])) as [number, string, number, number | null, number | null, string | null][];
    const logged =
      formulaId === null
        ? loggedLastAt(db, at)
        : loggedLastAt(db, at, `AND ingredient_id IN (SELECT id FROM ingredients WHERE workspace_id = ? AND name IN (${lines("?", "?")}))`, workspaceId, workspaceId, formulaId);
    const first = db.query(FIRST_PRICE);
    const prices = new Map<string, number>();
    for (const [id, name, current, price, inStock, entryAt] of rows) {
      const entry = later(historyEntry(price, inStock, entryAt), logged.get(id));
      prices.set(name, entry?.[0] ?? (first.get(id) as { price: number } | null)?.price ?? current);
    }
    return prices;
  },
  currentPrices: (db, workspaceId, formulaId) => {
    const rows = db
      .query(
        `SELECT name, price FROM ingredients
         WHERE workspace_id = ?1 ${formulaId === null ? "" : "AND name IN (SELECT ingredient FROM formula_lines WHERE workspace_id = ?1 AND formula_id = ?2)"}`,
      )
      .values(...(formulaId === null ? [workspaceId] : [workspaceId, formulaId])) as [string, number][];
    return new Map(rows);
  },
};

/**
 * Every entry of both tables as the one table `price_history` stands for, the log's entries numbered
 * after the history's (each was recorded after all of them): what a copy of the history takes (feedbase copy-to).
 * @example db.query(`SELECT * FROM (${PRICE_ENTRIES}) ORDER BY id`).all()
 */
export const PRICE_ENTRIES = `SELECT id, ingredient_id, price, in_stock, at, source FROM price_history
  UNION ALL SELECT (SELECT coalesce(max(id), 0) FROM price_history) + id, ingredient_id, price, in_stock, at, source FROM price_log`;

// The history's last entry at or before an instant: one backward step in price_history_by_ingredient.
const LAST_AT = (at: string) => `SELECT id FROM price_history WHERE ingredient_id = i.id AND at <= ${at} ORDER BY at DESC, id DESC LIMIT 1`;
type Entry = [price: number, inStock: number, at: string];

/**
 * The log's last entry at or before `at` of each ingredient in it (of those `only` selects by id), by
 * ingredient id. One pass in recording order, no sort: the log has no index, and a window function
 * sorting it cost 3 ms per 4,000 entries. A later entry at the same instant replaces an earlier one.
 */
function loggedLastAt(db: Database, at: string, only = "", ...params: (string | number)[]): Map<number, Entry> {
  const last = new Map<number, Entry>();
  const rows = db.query(`SELECT ingredient_id, price, in_stock, at FROM price_log WHERE at <= ? ${only} ORDER BY id`).values(at, ...params) as [number, ...Entry][];
  for (const [id, price, inStock, entryAt] of rows) {
    const seen = last.get(id);
    if (seen === undefined || entryAt >= seen[2]) last.set(id, [price, inStock, entryAt]);
  }
  return last;
}

/** Of the history's entry and the log's, the later; at the same instant the log's, which was recorded later. */
const later = (history: Entry | null, logged: Entry | undefined): Entry | null => (logged && (history === null || logged[2] >= history[2]) ? logged : history);

/** The history's entry in a row of [..., price, in_stock, at], or null when the LEFT JOIN found none. */
const historyEntry = (price: number | null, inStock: number | null, at: string | null): Entry | null => (at === null ? null : [price!, inStock!, at]);

// An ingredient's first entry in either table: the fallback of costing before its history began.
const FIRST_PRICE = `SELECT price FROM (
    SELECT price, at, 0 AS logged, id FROM price_history WHERE ingredient_id = ?1
    UNION ALL SELECT price, at, 1, id FROM price_log WHERE ingredient_id = ?1)
  ORDER BY at, logged, id LIMIT 1`;
