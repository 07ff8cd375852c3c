/**
 * The SQL of `feedbase import` (and `feedbase demo`): checking a whole file needs the workspace's names,
 * outside any transaction; writing it runs in the caller's one short transaction (src/admin/imports.ts),
 * so a 50,000-row import holds the write lock for the inserts alone and the running server keeps
 * answering. All or nothing; each created row, and each `--update` that changes a price or stock status,
 * gets its price-history entry and (unless `--no-events`) the API's events in the same transaction.
 */
import type { Database } from "bun:sqlite";
import { buildFormula, type FileFormula } from "../domain/formula-file.ts";
import type { FileFormat, IngredientRow } from "../domain/ingredient-file.ts";
import { newFormulaId } from "../domain/ids.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { formulaExists, saveFormula } from "./formulas.ts";
import { insertIngredient, recordPriceChange } from "./ingredient-changes.ts";
import { recordEvent } from "./events.ts";
import { findIngredient } from "./ingredients.ts";
import type { PriceSource } from "./price-history.ts";
import { addedEvent, type Actor } from "../domain/ingredient-events.ts";
import { updatedFields } from "../domain/ingredient-update.ts";
import { addedWhileImporting, checkRows, formulaTaken, type FormulaImportOptions, type IngredientImportOptions } from "./import-rules.ts";
import { formulaUpdatedEvent } from "../domain/formula-writes.ts";
import { requireTransaction } from "./transaction.ts";

export type { IngredientImportOptions } from "./import-rules.ts";

/**
 * Read and check an ingredient file (CSV or JSON) against the workspace; throws a ValidationError
 * naming the first bad row. Reads only: call it before the transaction that writes the rows.
 * @example const rows = checkIngredientImport(db, 1, csvText, "csv", { update: false, now })
 */
export function checkIngredientImport(db: Database, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): IngredientRow[] {
  const existing = (db.query("SELECT name FROM ingredients WHERE workspace_id = ?").all(workspaceId) as { name: string }[]).map((r) => r.name);
  return checkRows(text, format, existing, options);
}

/**
 * Write checked rows, inside the caller's transaction, in file order; with `events`, each change fires
 * what the API fires for it, in that order.
 * @example transaction(db, () => writeIngredientImport(db, 1, rows, { update: false, now, events: true })) // { added: 51, updated: 0 }
 */
export function writeIngredientImport(db: Database, workspaceId: number, rows: readonly IngredientRow[], options: IngredientImportOptions): { added: number; updated: number } {
  requireTransaction(db, "writeIngredientImport");
  const source = options.source ?? "import";
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  const events = options.events === true;
  let updated = 0;
  for (const row of rows) {
    if (options.update && updateIngredient(db, actor, row, events)) updated++;
    else {
      insertRow(db, workspaceId, row, source, options.now);
      if (events) recordEvent(db, addedEvent(actor, row.input));
    }
  }
  return { added: rows.length - updated, updated };
}

/** A name added by someone else between validation and this write still rejects the whole file. */
function insertRow(db: Database, workspaceId: number, row: IngredientRow, source: PriceSource, now: string): void {
  try {
    insertIngredient(db, workspaceId, row.input, source, row.updatedAt ?? now, row.createdAt ?? now);
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") throw addedWhileImporting(row);
    throw error;
  }
}

/**
 * `--update`: the fields the row names replace the stored ones (updatedFields); false when the name is
 * new. A changed price or stock status is recorded at the import's time: the history is the order in
 * which prices took effect here, whatever updatedAt the file carries.
 */
function updateIngredient(db: Database, actor: Actor, row: IngredientRow, events: boolean): boolean {
  const { name } = row.input;
  const stored = db
    .query("SELECT category, price, in_stock AS inStock, nutrients FROM ingredients WHERE workspace_id = ? AND name = ?")
    .get(actor.workspaceId, name) as { category: string; price: number; inStock: number; nutrients: string } | null;
  if (!stored) return false;
  const before = { category: stored.category, price: stored.price, inStock: stored.inStock === 1, nutrients: JSON.parse(stored.nutrients) as Record<string, number> };
  const after = updatedFields(before, row);
  // No co2e column (input.co2e absent) keeps the stored footprint.
  db.query(
    "UPDATE ingredients SET category = ?, price = ?, in_stock = ?, co2e = CASE WHEN ? THEN ? ELSE co2e END, nutrients = ?, nutrient_count = ?, updated_at = ? WHERE workspace_id = ? AND name = ?",
  ).run(
    after.category,
    after.price,
    after.inStock ? 1 : 0,
    row.input.co2e !== undefined ? 1 : 0,
    row.input.co2e ?? null,
    JSON.stringify(after.nutrients),
    Object.keys(after.nutrients).length,
    row.updatedAt ?? actor.now,
    actor.workspaceId,
    name,
  );
  recordPriceChange(db, actor, name, before, after, { at: actor.now, source: "import", events });
  return true;
}

/**
 * Write validated formulas (see `readFormulaFile`) inside the caller's transaction: prices and nutrients
 * are looked up, and every figure computed, inside it, so no ingredient can vanish in between. An
 * existing id rejects the file unless `replace`.
 * @example transaction(db, () => writeFormulaImport(db, 1, readFormulaFile(text), { replace: false, now })) // FormulaDetail[]
 */
export function writeFormulaImport(db: Database, workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions): FormulaDetail[] {
  requireTransaction(db, "writeFormulaImport");
  const built = formulas.map((f) => {
    const detail = buildFormula(f, (name) => findIngredient(db, workspaceId, name), { id: newFormulaId(), now: options.now });
    if (!options.replace && formulaExists(db, workspaceId, detail.id)) throw formulaTaken(f, detail.id);
    return detail;
  });
  for (const detail of built) {
    saveFormula(db, workspaceId, detail);
    if (options.events) recordEvent(db, formulaUpdatedEvent({ workspaceId, keyId: null, now: options.now }, detail));
  }
  return built;
}
