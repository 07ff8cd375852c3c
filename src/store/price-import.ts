/**
 * `feedbase import prices`: the weekly purchasing file, written in one transaction of its own
 * (src/admin/imports.ts), row by row in file order, each change with what the API's PUT causes. Written
 * once over the statements of src/store/sqlite/price-import.ts and src/store/pg/price-import.ts.
 */
import { priceAfter, repeatsPoint, type Actor } from "../domain/ingredient-events.ts";
import type { PriceRow } from "../domain/price-file.ts";
import { recordPriceChange } from "./ingredient-changes.ts";
import { all, operation, statements, tx } from "./op.ts";
import { pgPriceImport } from "./pg/price-import.ts";
import { entryBeforeLast, priceImportResult, unknownIngredient, type PriceImportOptions, type PriceImportStatements } from "./price-import-rules.ts";
import { sqlitePriceImport } from "./sqlite/price-import.ts";

export type { PriceImportOptions, PriceImportResult } from "./price-import-rules.ts";

const q = statements<PriceImportStatements>(sqlitePriceImport, pgPriceImport);

/**
 * Write checked rows inside the caller's transaction; a row that repeats price and stock changes
 * nothing. Throws a ValidationError naming the line of an unknown name or of an `at` before the
 * ingredient's last history entry, and then the transaction writes nothing.
 * @example transaction(db, () => writePriceImport(db, 1, readPriceFile(text, now), { now, events: true })) // { changed: 12, unchanged: 40 }
 */
export const writePriceImport = operation(function* (workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions) {
  yield* tx.requireTransaction("writePriceImport");
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  // The API's writes take it first too: event ids then commit in order (src/store/pg/events.ts).
  if (options.events) yield* q.holdOutbox();
  // SQLite's log has no index: its last instants are read in one pass, and only when a row gives an `at`.
  const logged = rows.some((row) => row.at !== null) ? yield* q.loggedLast() : new Map<number, string>();
  let changed = 0;
  for (const row of rows) {
    const found = yield* q.lockedPrice(workspaceId, row.name, row.at !== null);
    if (!found) throw unknownIngredient(row);
    const before = { price: found.price, inStock: found.inStock === 1 };
    const after = priceAfter(before, { price: row.price, inStock: row.inStock ?? undefined });
    if (repeatsPoint(before, after)) continue;
    if (row.at !== null) {
      const inLog = logged.get(found.id) ?? null;
      const last = found.last === null || (inLog !== null && inLog > found.last) ? inLog : found.last;
      if (last !== null && row.at < last) throw entryBeforeLast(row, last);
    }
    // On PostgreSQL the UPDATE goes in the same round trip as the change's history entry and events.
    yield* all(q.setPrice(found.id, after, options.now), recordPriceChange.steps(actor, row.name, before, after, { at: row.at ?? options.now, source: "import", events: options.events }));
    changed++;
  }
  return priceImportResult(rows.length, changed);
});
