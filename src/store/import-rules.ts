/**
 * What both backends' imports share: the options, the check of a file against the names a workspace
 * holds, the refusals, and the statements of src/store/imports.ts (each dialect's in
 * src/store/sqlite/imports.ts and src/store/pg/imports.ts).
 */
import { ConflictError } from "../domain/errors.ts";
import type { FileFormula } from "../domain/formula-file.ts";
import { readIngredientFile, type FileFormat, type IngredientRow } from "../domain/ingredient-file.ts";
import type { StoredFields } from "../domain/ingredient-update.ts";
import type { PriceSource } from "./price-rows.ts";

export interface IngredientImportOptions {
  /** Change the fields the file names of names the workspace already holds (absent columns keep theirs). */
  update: boolean;
  now: string;
  /** Fire what the API would for the same changes (`ingredient.added`, `price.updated`, `formula.cost_changed`); off for a first load. */
  events?: boolean;
  /** Whose entries these are in the price history: `import`, or `demo` for the demo's own file. */
  source?: PriceSource;
  onProgress?(checked: number, total: number): void;
}

export interface FormulaImportOptions {
  /** Overwrite formulas whose id the workspace holds. */
  replace: boolean;
  now: string;
  /** Fire the opt-in `formula.updated` for each formula written; off with `--no-events`. */
  events?: boolean;
}

/**
 * Read and check an ingredient file against the names the workspace holds (taken unless `--update`).
 * @example checkRows(csvText, "csv", ["Maize"], { update: false, now }) // ValidationError at a row named Maize
 */
export function checkRows(text: string, format: FileFormat, existing: readonly string[], options: IngredientImportOptions): IngredientRow[] {
  const names = new Set(existing);
  return readIngredientFile(text, format, { exists: (name) => names.has(name), update: options.update, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
}

/** A name someone else added between the check and the write: the whole file is refused. @example throw addedWhileImporting(row) */
export const addedWhileImporting = (row: IngredientRow): ConflictError =>
  new ConflictError(`${row.where}: Ingredient already exists: ${row.input.name} (added while importing; nothing was imported)`);

/** An id the workspace holds, without --replace. @example throw formulaTaken(f, "broiler-starter") */
export const formulaTaken = (f: FileFormula, id: string): ConflictError => new ConflictError(`${f.label}: Formula already exists: ${id} (use --replace to overwrite it)`);

/** A stored ingredient's fields an `--update` row may replace, as read (stock 0/1, nutrients JSON text). */
export interface StoredRow {
  category: string;
  price: number;
  inStock: number;
  nutrients: string;
}

/** The statements of the ingredient and formula imports (src/store/imports.ts). */
export interface ImportStatements {
  /** Every name the workspace holds: what a file is checked against. */
  names(workspaceId: number): string[];
  /**
   * PostgreSQL's outbox lock, held to the transaction's end so the events' own statements need not take
   * it again (src/store/pg/events.ts); SQLite's one writer needs none.
   */
  holdOutbox(): void;
  /** The fields of a name the workspace holds, its row held to the transaction's end where a row can be (PostgreSQL's FOR UPDATE); null for a new name. */
  lockedRow(workspaceId: number, name: string): StoredRow | null;
  /** The fields after an `--update` row; `co2e` undefined (no such column in the file) keeps the stored footprint, null (an empty cell) clears it. */
  updateRow(workspaceId: number, name: string, fields: StoredFields, co2e: number | null | undefined, updatedAt: string): void;
}
