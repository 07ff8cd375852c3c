/**
 * Moving the price log into the indexed history (docs/decisions.md#price-history-and-formula-costs), in
 * steps: once the log holds FOLD_AT entries, a price change moves the entries of one range of
 * ingredients (about FOLD_STEP of them, all of each ingredient's) inside its own transaction, instead of
 * the whole log at once. Each step inserts in the index's order over a contiguous key range, so an index
 * page is still written about once per FOLD_AT changes, and no write pays for more than a step.
 */
import type { Database } from "bun:sqlite";

/** The log's length from which changes fold it step by step (bench/history.ts measured the choice). */
export const FOLD_AT = 16_384;
/** About how many entries one step moves: a sixteenth of the log, a few milliseconds. */
export const FOLD_STEP = 1_024;
/** The log's length is looked at every this many appends (a count is a pass over the log). */
const CHECK_EVERY = 64;

/**
 * After an append with rowid `appended`: one fold step if the log has reached FOLD_AT entries.
 * @example maybeFoldStep(db, Number(result.lastInsertRowid))
 */
export function maybeFoldStep(db: Database, appended: number): void {
  if (appended % CHECK_EVERY !== 0) return;
  const { n } = db.query("SELECT count(*) AS n FROM price_log").get() as { n: number };
  if (n >= FOLD_AT) foldStep(db);
}

/**
 * Move the log entries of the ingredients from the oldest entry's onward, up to about FOLD_STEP entries
 * (an ingredient's entries always go together), inside the caller's transaction. Starting at the oldest
 * entry's ingredient means no entry waits for ever; every log entry of a moved ingredient goes, so for
 * each ingredient every log entry is still recorded after every history entry, as reads assume.
 * @example foldStep(db)
 */
export function foldStep(db: Database): void {
  const oldest = db.query("SELECT ingredient_id AS id FROM price_log ORDER BY id LIMIT 1").get() as { id: number } | null;
  if (oldest === null) return;
  const bound = db.query("SELECT ingredient_id AS id FROM price_log WHERE ingredient_id >= ? ORDER BY ingredient_id LIMIT 1 OFFSET ?").get(oldest.id, FOLD_STEP - 1) as {
    id: number;
  } | null;
  const last = bound?.id ?? Number.MAX_SAFE_INTEGER;
  db.query(
    "INSERT INTO price_history (ingredient_id, price, in_stock, at, source) SELECT ingredient_id, price, in_stock, at, source FROM price_log WHERE ingredient_id BETWEEN ? AND ? ORDER BY ingredient_id, at, id",
  ).run(oldest.id, last);
  db.query("DELETE FROM price_log WHERE ingredient_id BETWEEN ? AND ?").run(oldest.id, last);
}

/**
 * Move every entry of the log into the indexed history inside the caller's transaction, in the index's
 * order (ingredient, instant, then recording order): inserting in key order costs a third of inserting
 * in recording order. Reads give the same answers before and after: they order an ingredient's entries
 * by instant, and entries of one instant keep their recording order. What the fold when writes go quiet
 * runs (src/service/quiet-fold.ts): nothing waits behind it then.
 * @example foldPriceLog(db)
 */
export function foldPriceLog(db: Database): void {
  db.run(
    "INSERT INTO price_history (ingredient_id, price, in_stock, at, source) SELECT ingredient_id, price, in_stock, at, source FROM price_log ORDER BY ingredient_id, at, id",
  );
  db.run("DELETE FROM price_log");
}

/**
 * Whether the log holds any entry: what decides that a fold when writes go quiet has work to do.
 * @example if (priceLogHasEntries(db)) foldPriceLog(db)
 */
export function priceLogHasEntries(db: Database): boolean {
  return (db.query("SELECT EXISTS (SELECT 1 FROM price_log) AS any").get() as { any: number }).any === 1;
}
