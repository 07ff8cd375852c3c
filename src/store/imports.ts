/**
 * The write side of `feedbase import` (and `feedbase demo`): validate the whole file first, outside any
 * transaction, then write it in one short transaction, so a 50,000-row import holds the write lock for
 * the inserts alone and the running server keeps answering. All or nothing; imports fire no events,
 * but each created row, and each `--update` that changes a price or stock status, gets its
 * price-history entry in the same transaction.
 */
import type { Database } from "bun:sqlite";
import { ConflictError } from "../domain/errors.ts";
import { buildFormula, type FileFormula } from "../domain/formula-file.ts";
import { readIngredientFile, type FileFormat, type IngredientRow } from "../domain/ingredient-file.ts";
import { newFormulaId } from "../domain/ids.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { formulaExists, saveFormula } from "./formulas.ts";
import { findIngredient, insertIngredient } from "./ingredients.ts";
import { recordChange, type PriceSource } from "./price-history.ts";

export interface IngredientImportOptions {
  /** Replace category, price, inStock and all nutrients of names the workspace already holds. */
  update: boolean;
  now: string;
  /** Whose entries these are in the price history: `import`, or `demo` for the demo's own file. */
  source?: PriceSource;
  onProgress?(checked: number, total: number): void;
}

/**
 * Import an ingredient file (CSV or JSON); throws a ValidationError naming the first bad row, and
 * then nothing is written.
 * @example importIngredients(db, 1, csvText, "csv", { update: false, now }) // { added: 51, updated: 0 }
 */
export function importIngredients(db: Database, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): { added: number; updated: number } {
  const existing = new Set((db.query("SELECT name FROM ingredients WHERE workspace_id = ?").all(workspaceId) as { name: string }[]).map((r) => r.name));
  const rows = readIngredientFile(text, format, { taken: (name) => !options.update && existing.has(name), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const source = options.source ?? "import";
  return db.transaction(() => {
    let updated = 0;
    for (const row of rows) {
      if (options.update && replaceIngredient(db, workspaceId, row, options.now)) updated++;
      else insertRow(db, workspaceId, row, source, options.now);
    }
    return { added: rows.length - updated, updated };
  }).immediate();
}

/** A name added by someone else between validation and this write still rejects the whole file. */
function insertRow(db: Database, workspaceId: number, row: IngredientRow, source: PriceSource, now: string): void {
  try {
    insertIngredient(db, workspaceId, row.input, source, row.updatedAt ?? now, row.createdAt ?? now);
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw new ConflictError(`${row.where}: Ingredient already exists: ${row.input.name} (added while importing; nothing was imported)`);
    }
    throw error;
  }
}

/**
 * `--update`: the row replaces everything but the name and createdAt. False when the name is new.
 * A changed price or stock status is recorded at the import's time: the history is the order in
 * which prices took effect here, whatever updatedAt the file carries.
 */
function replaceIngredient(db: Database, workspaceId: number, row: IngredientRow, now: string): boolean {
  const { input } = row;
  const stored = db.query("SELECT price, in_stock AS inStock FROM ingredients WHERE workspace_id = ? AND name = ?").get(workspaceId, input.name) as { price: number; inStock: number } | null;
  if (!stored) return false;
  const before = { price: stored.price, inStock: stored.inStock === 1 };
  db.query("UPDATE ingredients SET category = ?, price = ?, in_stock = ?, nutrients = ?, nutrient_count = ?, updated_at = ? WHERE workspace_id = ? AND name = ?").run(
    input.category,
    input.price,
    input.inStock ? 1 : 0,
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
 * Import validated formulas (see `readFormulaFile`): prices and nutrients are looked up, and every
 * figure computed, inside the write transaction, so no ingredient can vanish in between. An existing
 * id rejects the file unless `replace`.
 * @example importFormulas(db, 1, readFormulaFile(text), { replace: false, now }) // FormulaDetail[]
 */
export function importFormulas(db: Database, workspaceId: number, formulas: readonly FileFormula[], options: { replace: boolean; now: string }): FormulaDetail[] {
  return db.transaction(() => {
    const built = formulas.map((f) => {
      const detail = buildFormula(f, (name) => findIngredient(db, workspaceId, name), { id: newFormulaId(), now: options.now });
      if (!options.replace && formulaExists(db, workspaceId, detail.id)) {
        throw new ConflictError(`${f.label}: Formula already exists: ${detail.id} (use --replace to overwrite it)`);
      }
      return detail;
    });
    for (const detail of built) saveFormula(db, workspaceId, detail);
    return built;
  }).immediate();
}
