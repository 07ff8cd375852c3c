/**
 * PostgreSQL's twins of ../imports.ts and of src/admin/imports.ts: check the file outside any
 * transaction, then write it whole in one (ending with the notification running servers listen for).
 * Imports fire no events; created rows, and `--update`s that change price or stock, get their
 * price-history entries in the same transaction.
 */
import type { SQL } from "bun";
import { buildFormula, type FileFormula } from "../../domain/formula-file.ts";
import { newFormulaId } from "../../domain/ids.ts";
import type { FileFormat, IngredientRow } from "../../domain/ingredient-file.ts";
import type { FormulaDetail } from "../../schemas/formulas.ts";
import { addedWhileImporting, checkRows, formulaTaken, type IngredientImportOptions } from "../import-rules.ts";
import { saveFormula } from "./admin-changes.ts";
import { formulaExists } from "./formulas.ts";
import { insertIngredient } from "./ingredient-changes.ts";
import { listIngredientDetails } from "./ingredients.ts";
import { recordChange } from "./price-history.ts";
import { writeTransaction } from "./transaction.ts";

/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = "23505";

/** @example const rows = await checkIngredientImport(sql, 1, csvText, "csv", { update: false, now }) */
export async function checkIngredientImport(sql: SQL, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): Promise<IngredientRow[]> {
  const existing = (await sql`SELECT name FROM ingredients WHERE workspace_id = ${workspaceId}`) as { name: string }[];
  return checkRows(text, format, existing.map((r) => r.name), options);
}

/** New rows sent at once: Bun.sql pipelines them, so a chunk costs about one round trip, not two a row. */
const INSERT_CHUNK = 500;

/** Write checked rows inside the caller's transaction. @example await writeIngredientImport(tx, 1, rows, { update: false, now }) */
export async function writeIngredientImport(sql: SQL, workspaceId: number, rows: readonly IngredientRow[], options: IngredientImportOptions): Promise<{ added: number; updated: number }> {
  const source = options.source ?? "import";
  let updated = 0;
  const added: IngredientRow[] = [];
  for (const row of rows) {
    if (options.update && (await replaceIngredient(sql, workspaceId, row, options.now))) updated++;
    else added.push(row);
  }
  for (let start = 0; start < added.length; start += INSERT_CHUNK) {
    const chunk = added.slice(start, start + INSERT_CHUNK);
    const settled = await Promise.allSettled(chunk.map((row) => insertIngredient(sql, workspaceId, row.input, source, row.updatedAt ?? options.now, row.createdAt ?? options.now)));
    // One failure aborts the transaction and fails the statements behind it: name the row that was taken, if one was.
    const taken = settled.findIndex((r) => r.status === "rejected" && (r.reason as { errno?: string }).errno === UNIQUE_VIOLATION);
    if (taken !== -1) throw addedWhileImporting(chunk[taken]!);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
  return { added: added.length, updated };
}

/** `--update`: everything but the name and createdAt (and the footprint when the file does not name it); a changed price or stock is recorded at the import's time. */
async function replaceIngredient(sql: SQL, workspaceId: number, row: IngredientRow, now: string): Promise<boolean> {
  const { input } = row;
  const [stored] = (await sql`SELECT price, in_stock AS "inStock" FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${input.name} FOR UPDATE`) as {
    price: number;
    inStock: number;
  }[];
  if (!stored) return false;
  await sql`UPDATE ingredients SET category = ${input.category}, price = ${input.price}, in_stock = ${input.inStock ? 1 : 0}, ${input.co2e === undefined ? sql`` : sql`co2e = ${input.co2e},`} nutrients = ${JSON.stringify(input.nutrients)},
      nutrient_count = ${Object.keys(input.nutrients).length}, updated_at = ${row.updatedAt ?? now}
    WHERE workspace_id = ${workspaceId} AND name = ${input.name}`;
  await recordChange(sql, workspaceId, input.name, { price: stored.price, inStock: stored.inStock === 1 }, input, now, "import");
  return true;
}

/**
 * Write validated formulas inside the caller's transaction, priced from the ingredients as they are in it.
 * @example await writeFormulaImport(tx, 1, readFormulaFile(text), { replace: false, now })
 */
export async function writeFormulaImport(sql: SQL, workspaceId: number, formulas: readonly FileFormula[], options: { replace: boolean; now: string }): Promise<FormulaDetail[]> {
  const ingredients = new Map((await listIngredientDetails(sql, workspaceId)).map((i) => [i.name, i]));
  const built: FormulaDetail[] = [];
  for (const f of formulas) {
    const detail = buildFormula(f, (name) => ingredients.get(name) ?? null, { id: newFormulaId(), now: options.now });
    if (!options.replace && (await formulaExists(sql, workspaceId, detail.id))) throw formulaTaken(f, detail.id);
    built.push(detail);
  }
  for (const detail of built) await saveFormula(sql, workspaceId, detail);
  return built;
}

/** The whole `import ingredients`. @example await importIngredients(sql, 1, csvText, "csv", { update: false, now }) // { added: 51, updated: 0 } */
export async function importIngredients(sql: SQL, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): Promise<{ added: number; updated: number }> {
  const rows = await checkIngredientImport(sql, workspaceId, text, format, options);
  return writeTransaction(sql, (tx) => writeIngredientImport(tx, workspaceId, rows, options));
}

/** The whole `import formulas`. @example await importFormulas(sql, 1, readFormulaFile(text), { replace: false, now }) */
export async function importFormulas(sql: SQL, workspaceId: number, formulas: readonly FileFormula[], options: { replace: boolean; now: string }): Promise<FormulaDetail[]> {
  return writeTransaction(sql, (tx) => writeFormulaImport(tx, workspaceId, formulas, options));
}
