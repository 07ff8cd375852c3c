/**
 * `feedbase import` and the demo's import, whole, on either backend: check the file outside any
 * transaction, then write it in one short one of its own (`ownTransaction`: SQLite's `transaction()`,
 * PostgreSQL's `writeTransaction`).
 */
import type { AnalysisFileRow } from "../domain/analysis-file.ts";
import type { FileFormula } from "../domain/formula-file.ts";
import type { FileFormat } from "../domain/ingredient-file.ts";
import type { NutrientDefinition } from "../domain/nutrients.ts";
import type { PriceRow } from "../domain/price-file.ts";
import { writeAnalysisImport } from "../store/analyses.ts";
import type { FormulaImportOptions } from "../store/import-rules.ts";
import { checkIngredientImport, writeFormulaImport, writeIngredientImport, type IngredientImportOptions } from "../store/imports.ts";
import { writeNutrientImport } from "../store/nutrients.ts";
import { operation, ownTransaction } from "../store/op.ts";
import { writePriceImport, type PriceImportOptions } from "../store/price-import.ts";

/**
 * Import an ingredient file (CSV or JSON); throws a ValidationError naming the first bad row, and then
 * nothing is written.
 * @example importIngredients(db, 1, csvText, "csv", { update: false, now }) // { added: 51, updated: 0 }
 */
export const importIngredients = operation(function* (workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions) {
  const rows = yield* checkIngredientImport.steps(workspaceId, text, format, options);
  return yield* ownTransaction(writeIngredientImport.steps(workspaceId, rows, options));
});

/**
 * Import validated formulas; all or nothing.
 * @example importFormulas(db, 1, readFormulaFile(text), { replace: false, now }) // FormulaDetail[]
 */
export const importFormulas = operation(function* (workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions) {
  return yield* ownTransaction(writeFormulaImport.steps(workspaceId, formulas, options));
});

/**
 * Import checked price rows (`readPriceFile`); all or nothing.
 * @example importPrices(db, 1, readPriceFile(text, now), { now, events: true }) // { changed: 12, unchanged: 40 }
 */
export const importPrices = operation(function* (workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions) {
  return yield* ownTransaction(writePriceImport.steps(workspaceId, rows, options));
});

/**
 * Define or replace every key of a checked nutrient file (`readNutrientFile`); all or nothing.
 * @example importNutrients(db, 1, readNutrientFile(text, "csv")) // { added: 2, replaced: 23 }
 */
export const importNutrients = operation(function* (workspaceId: number, rows: readonly NutrientDefinition[]) {
  return yield* ownTransaction(writeNutrientImport.steps(workspaceId, rows));
});

/**
 * Add every analysis of a checked lab file (`readAnalysisFile`); all or nothing.
 * @example importAnalyses(db, 1, readAnalysisFile(text, now), { now, events: true }) // 12
 */
export const importAnalyses = operation(function* (workspaceId: number, rows: readonly AnalysisFileRow[], options: { now: string; events: boolean }) {
  return yield* ownTransaction(writeAnalysisImport.steps({ workspaceId, keyId: null, now: options.now }, rows, options.events));
});
