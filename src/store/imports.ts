/**
 * The SQL of `feedbase import` (and `feedbase demo`): checking a whole file needs the workspace's names,
 * outside any transaction; writing it runs in the caller's one short transaction (src/admin/imports.ts),
 * so a 50,000-row import holds the write lock for the inserts alone and the running server keeps
 * answering. All or nothing; imports fire no events, but each created row, and each `--update` that
 * changes a price or stock status, gets its price-history entry in the same transaction.
 */
import type { Database } from "bun:sqlite";
import { buildFormula, type FileFormula } from "../domain/formula-file.ts";
import type { FileFormat, IngredientRow } from "../domain/ingredient-file.ts";
import { newFormulaId } from "../domain/ids.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { formulaExists, saveFormula } from "./formulas.ts";
import { insertIngredient } from "./ingredient-changes.ts";
import { findIngredient } from "./ingredients.ts";
import { recordChange, type PriceSource } from "./price-history.ts";
import { addedWhileImporting, checkRows, formulaTaken, type IngredientImportOptions } from "./import-rules.ts";
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
 * Write checked rows, inside the caller's transaction.
 * @example transaction(db, () => writeIngredientImport(db, 1, rows, { update: false, now })) // { added: 51, updated: 0 }
 */
export function writeIngredientImport(db: Database, workspaceId: number, rows: readonly IngredientRow[], options: IngredientImportOptions): { added: number; updated: number } {
  requireTransaction(db, "writeIngredientImport");
  const source = options.source ?? "import";
  let updated = 0;
  for (const row of rows) {
    if (options.update && replaceIngredient(db, workspaceId, row, options.now)) updated++;
    else insertRow(db, workspaceId, row, source, options.now);
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
 * `--update`: the row replaces everything but the name and createdAt (and the footprint when the file
 * does not name it). False when the name is new.
 * A changed price or stock status is recorded at the import's time: the history is the order in
 * which prices took effect here, whatever updatedAt the file carries.
 */
function replaceIngredient(db: Database, workspaceId: number, row: IngredientRow, now: string): boolean {
  const { input } = row;
  const stored = db.query("SELECT price, in_stock AS inStock FROM ingredients WHERE workspace_id = ? AND name = ?").get(workspaceId, input.name) as { price: number; inStock: number } | null;
  if (!stored) return false;
  const before = { price: stored.price, inStock: stored.inStock === 1 };
  db.query(
    "UPDATE ingredients SET category = ?, price = ?, in_stock = ?, co2e = CASE WHEN ? THEN ? ELSE co2e END, nutrients = ?, nutrient_count = ?, updated_at = ? WHERE workspace_id = ? AND name = ?",
  ).run(
    input.category,
    input.price,
    input.inStock ? 1 : 0,
    input.co2e !== undefined ? 1 : 0,
    input.co2e ?? null,
    JSON.stringify(input.nutrients),
    Object.keys(input.nutrients).length,
    row.updatedAt ?? now,
    workspaceId,
    input.name,
  );
  recordChange(db, workspaceId, input.name, before, input, now, "import");
  return true;
}

/**
 * Write validated formulas (see `readFormulaFile`) inside the caller's transaction: prices and nutrients
 * are looked up, and every figure computed, inside it, so no ingredient can vanish in between. An
 * existing id rejects the file unless `replace`.
 * @example transaction(db, () => writeFormulaImport(db, 1, readFormulaFile(text), { replace: false, now })) // FormulaDetail[]
 */
export function writeFormulaImport(db: Database, workspaceId: number, formulas: readonly FileFormula[], options: { replace: boolean; now: string }): FormulaDetail[] {
  requireTransaction(db, "writeFormulaImport");
  const built = formulas.map((f) => {
    const detail = buildFormula(f, (name) => findIngredient(db, workspaceId, name), { id: newFormulaId(), now: options.now });
    if (!options.replace && formulaExists(db, workspaceId, detail.id)) throw formulaTaken(f, detail.id);
    return detail;
  });
  for (const detail of built) saveFormula(db, workspaceId, detail);
  return built;
}
