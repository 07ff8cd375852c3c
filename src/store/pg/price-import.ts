/** PostgreSQL's twin of ../price-import.ts: `feedbase import prices`, in one transaction, in file order. */
import type { SQL } from "bun";
import { priceAfter, repeatsPoint, type Actor } from "../../domain/ingredient-events.ts";
import type { PriceRow } from "../../domain/price-file.ts";
import { entryBeforeLast, priceImportResult, unknownIngredient, type PriceImportOptions, type PriceImportResult } from "../price-import-rules.ts";
import { holdOutbox } from "./events.ts";
import { recordPriceChange } from "../ingredient-changes.ts";
import { writeTransaction } from "./transaction.ts";

/**
 * Write checked rows inside the caller's transaction (see ../price-import.ts).
 * @example await writePriceImport(tx, 1, readPriceFile(text, now), { now, events: true }) // { changed: 12, unchanged: 40 }
 */
export async function writePriceImport(sql: SQL, workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions): Promise<PriceImportResult> {
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  // The API's writes take it first too: event ids then commit in order (./events.ts).
  if (options.events) await holdOutbox(sql);
  let changed = 0;
  for (const row of rows) {
    const [found] = (await sql`SELECT id, price, in_stock AS "inStock",
        CASE WHEN ${row.at}::text IS NULL THEN NULL ELSE (SELECT max(at) FROM price_history WHERE ingredient_id = ingredients.id) END AS last
      FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${row.name} FOR UPDATE`) as { id: number; price: number; inStock: number; last: string | null }[];
    if (!found) throw unknownIngredient(row);
    const before = { price: found.price, inStock: found.inStock === 1 };
    const after = priceAfter(before, { price: row.price, inStock: row.inStock ?? undefined });
    if (repeatsPoint(before, after)) continue;
    if (row.at !== null && found.last !== null && row.at < found.last) throw entryBeforeLast(row, found.last);
    await sql`UPDATE ingredients SET price = ${after.price}, in_stock = ${after.inStock ? 1 : 0}, updated_at = ${options.now} WHERE id = ${found.id}`;
    await recordPriceChange(sql, actor, row.name, before, after, { at: row.at ?? options.now, source: "import", events: options.events });
    changed++;
  }
  return priceImportResult(rows.length, changed);
}

/** The whole `import prices`. @example await importPrices(sql, 1, rows, { now, events: true }) */
export async function importPrices(sql: SQL, workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions): Promise<PriceImportResult> {
  return writeTransaction(sql, (tx) => writePriceImport(tx, workspaceId, rows, options));
}
