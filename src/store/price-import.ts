/**
 * `feedbase import prices`: the weekly purchasing file, written in one transaction of the caller's
 * (src/admin/imports.ts), row by row in file order, each change with what the API's PUT causes.
 */
import type { Database } from "bun:sqlite";
import { priceAfter, repeatsPoint, type Actor } from "../domain/ingredient-events.ts";
import type { PriceRow } from "../domain/price-file.ts";
import { recordPriceChange } from "./ingredient-changes.ts";
import { entryBeforeLast, priceImportResult, unknownIngredient, type PriceImportOptions, type PriceImportResult } from "./price-import-rules.ts";
import { requireTransaction } from "./transaction.ts";

export type { PriceImportOptions, PriceImportResult } from "./price-import-rules.ts";

/**
 * Write checked rows inside the caller's transaction; a row that repeats price and stock changes
 * nothing. Throws a ValidationError naming the line of an unknown name or of an `at` before the
 * ingredient's last history entry, and then the transaction writes nothing.
 * @example transaction(db, () => writePriceImport(db, 1, readPriceFile(text, now), { now, events: true })) // { changed: 12, unchanged: 40 }
 */
export function writePriceImport(db: Database, workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions): PriceImportResult {
  requireTransaction(db, "writePriceImport");
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  const stored = db.query("SELECT id, price, in_stock AS inStock FROM ingredients WHERE workspace_id = ? AND name = ?");
  const lastInHistory = db.query("SELECT max(at) AS at FROM price_history WHERE ingredient_id = ?");
  // The log has no index: its last instants are read in one pass, and only when a row gives an `at`.
  const lastLogged = rows.some((row) => row.at !== null) ? loggedLast(db) : new Map<number, string>();
  const update = db.query("UPDATE ingredients SET price = ?, in_stock = ?, updated_at = ? WHERE id = ?");
  let changed = 0;
  for (const row of rows) {
    const found = stored.get(workspaceId, row.name) as { id: number; price: number; inStock: number } | null;
    if (!found) throw unknownIngredient(row);
    const before = { price: found.price, inStock: found.inStock === 1 };
    const after = priceAfter(before, { price: row.price, inStock: row.inStock ?? undefined });
    if (repeatsPoint(before, after)) continue;
    if (row.at !== null) {
      const history = (lastInHistory.get(found.id) as { at: string | null }).at;
      const logged = lastLogged.get(found.id) ?? null;
      const last = history === null || (logged !== null && logged > history) ? logged : history;
      if (last !== null && row.at < last) throw entryBeforeLast(row, last);
    }
    update.run(after.price, after.inStock ? 1 : 0, options.now, found.id);
    recordPriceChange(db, actor, row.name, before, after, { at: row.at ?? options.now, source: "import", events: options.events });
    changed++;
  }
  return priceImportResult(rows.length, changed);
}

/** The last instant of each ingredient in the price log, by ingredient id. */
function loggedLast(db: Database): Map<number, string> {
  return new Map(db.query("SELECT ingredient_id, max(at) FROM price_log GROUP BY ingredient_id").values() as [number, string][]);
}

