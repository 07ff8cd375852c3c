/**
 * `feedbase import` and the demo's import, whole: check the file outside any transaction, then write it
 * in one short one (the commands' transaction owner, src/store/transaction.ts).
 */
import type { Database } from "bun:sqlite";
import type { AnalysisFileRow } from "../domain/analysis-file.ts";
import { writeAnalysisImport } from "../store/analyses.ts";
import type { FileFormula } from "../domain/formula-file.ts";
import type { FileFormat } from "../domain/ingredient-file.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { checkIngredientImport, writeFormulaImport, writeIngredientImport, type IngredientImportOptions } from "../store/imports.ts";
import type { FormulaImportOptions } from "../store/import-rules.ts";
import { transaction } from "../store/transaction.ts";
import type { PriceRow } from "../domain/price-file.ts";
import type { NutrientDefinition } from "../domain/nutrients.ts";
import { writeNutrientImport } from "../store/nutrients.ts";
import { writePriceImport, type PriceImportOptions, type PriceImportResult } from "../store/price-import.ts";

/**
 * Import an ingredient file (CSV or JSON); throws a ValidationError naming the first bad row, and then
 * nothing is written.
 * @example importIngredients(db, 1, csvText, "csv", { update: false, now }) // { added: 51, updated: 0 }
 */
export function importIngredients(db: Database, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): { added: number; updated: number } {
  const rows = checkIngredientImport(db, workspaceId, text, format, options);
  return transaction(db, () => writeIngredientImport(db, workspaceId, rows, options));
}

/**
 * Import validated formulas; all or nothing.
 * @example importFormulas(db, 1, readFormulaFile(text), { replace: false, now }) // FormulaDetail[]
 */
export function importFormulas(db: Database, workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions): FormulaDetail[] {
  return transaction(db, () => writeFormulaImport(db, workspaceId, formulas, options));
}

/**
 * Import checked price rows (`readPriceFile`); all or nothing.
 * @example importPrices(db, 1, readPriceFile(text, now), { now, events: true }) // { changed: 12, unchanged: 40 }
 */
export function importPrices(db: Database, workspaceId: number, rows: readonly PriceRow[], options: PriceImportOptions): PriceImportResult {
  return transaction(db, () => writePriceImport(db, workspaceId, rows, options));
}

/**
 * Define or replace every key of a checked nutrient file (`readNutrientFile`); all or nothing.
 * @example importNutrients(db, 1, readNutrientFile(text, "csv")) // { added: 2, replaced: 23 }
 */
export function importNutrients(db: Database, workspaceId: number, rows: readonly NutrientDefinition[]): { added: number; replaced: number } {
  return transaction(db, () => writeNutrientImport(db, workspaceId, rows));
}

/**
 * Add every analysis of a checked lab file (`readAnalysisFile`); all or nothing.
 * @example importAnalyses(db, 1, readAnalysisFile(text, now), { now, events: true }) // 12
 */
export function importAnalyses(db: Database, workspaceId: number, rows: readonly AnalysisFileRow[], options: { now: string; events: boolean }): number {
  return transaction(db, () => writeAnalysisImport(db, { workspaceId, keyId: null, now: options.now }, rows, options.events));
}
