/**
 * PostgreSQL's twins of ../imports.ts and of src/admin/imports.ts: check the file outside any
 * transaction, then write it whole in one (ending with the notification running servers listen for).
 * Created rows, and `--update`s that change price or stock, get their price-history entries and
 * (unless `--no-events`) the API's events in the same transaction.
 */
import type { SQL } from "bun";
import { buildFormula, type FileFormula } from "../../domain/formula-file.ts";
import { newFormulaId } from "../../domain/ids.ts";
import type { FileFormat, IngredientRow } from "../../domain/ingredient-file.ts";
import type { FormulaDetail } from "../../schemas/formulas.ts";
import { addedWhileImporting, checkRows, formulaTaken, type FormulaImportOptions, type IngredientImportOptions } from "../import-rules.ts";
import { formulaUpdatedEvent } from "../../domain/formula-writes.ts";
import { saveFormula } from "../formulas.ts";
import { formulaExists } from "../formulas.ts";
import { insertIngredient, recordPriceChange } from "../ingredient-changes.ts";
import { recordEvent, recordEvents } from "../events.ts";
import { holdOutbox } from "./events.ts";
import { addedEvent, type Actor } from "../../domain/ingredient-events.ts";
import { updatedFields } from "../../domain/ingredient-update.ts";
import type { PriceSource } from "../price-history.ts";
import { listIngredientDetails } from "../ingredients.ts";
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

/**
 * Write checked rows inside the caller's transaction. New rows go in pipelined chunks; with `events`,
 * the chunk ahead of an `--update` is written first, so every event is recorded in file order.
 * @example await writeIngredientImport(tx, 1, rows, { update: false, now, events: true })
 */
export async function writeIngredientImport(sql: SQL, workspaceId: number, rows: readonly IngredientRow[], options: IngredientImportOptions): Promise<{ added: number; updated: number }> {
  const source = options.source ?? "import";
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  const events = options.events === true;
  if (!options.update) {
    // Every row is new: write them all, then their events. The outbox lock (which every API write
    // waits for, ./events.ts) is then held for the events and the commit only, not the whole file:
    // held from the first row, a 4,000-row import stalled the API's writes for over a second.
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await insertChunk(sql, actor, rows.slice(i, i + INSERT_CHUNK), source, false);
    if (events) {
      await holdOutbox(sql);
      await recordEvents(sql, rows.map((row) => addedEvent(actor, row.input)));
    }
    return { added: rows.length, updated: 0 };
  }
  // The API's writes take it first too: event ids then commit in order (./events.ts).
  if (events) await holdOutbox(sql);
  let updated = 0;
  let added: IngredientRow[] = [];
  const insertAdded = async () => {
    await insertChunk(sql, actor, added, source, events);
    added = [];
  };
  for (const row of rows) {
    if (events && added.length > 0) await insertAdded();
    if (await updateIngredient(sql, actor, row, events)) updated++;
    else {
      added.push(row);
      if (added.length === INSERT_CHUNK) await insertAdded();
    }
  }
  await insertAdded();
  return { added: rows.length - updated, updated };
}

/** New rows sent at once (Bun.sql pipelines them), then their `ingredient.added` events in order. */
async function insertChunk(sql: SQL, actor: Actor, chunk: readonly IngredientRow[], source: PriceSource, events: boolean): Promise<void> {
  if (chunk.length === 0) return;
  const settled = await Promise.allSettled(chunk.map((row) => insertIngredient(sql, actor.workspaceId, row.input, source, row.updatedAt ?? actor.now, row.createdAt ?? actor.now)));
  // One failure aborts the transaction and fails the statements behind it: name the row that was taken, if one was.
  const taken = settled.findIndex((r) => r.status === "rejected" && (r.reason as { errno?: string }).errno === UNIQUE_VIOLATION);
  if (taken !== -1) throw addedWhileImporting(chunk[taken]!);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  if (events) await recordEvents(sql, chunk.map((row) => addedEvent(actor, row.input)));
}

/** `--update`: the fields the row names (updatedFields); a changed price or stock is recorded at the import's time. False when the name is new. */
async function updateIngredient(sql: SQL, actor: Actor, row: IngredientRow, events: boolean): Promise<boolean> {
  const { name } = row.input;
  const [stored] = (await sql`SELECT category, price, in_stock AS "inStock", nutrients FROM ingredients WHERE workspace_id = ${actor.workspaceId} AND name = ${name} FOR UPDATE`) as {
    category: string;
    price: number;
    inStock: number;
    nutrients: string;
  }[];
  if (!stored) return false;
  const before = { category: stored.category, price: stored.price, inStock: stored.inStock === 1, nutrients: JSON.parse(stored.nutrients) as Record<string, number> };
  const after = updatedFields(before, row);
  // No co2e column (input.co2e absent) keeps the stored footprint.
  const co2e = row.input.co2e;
  await sql`UPDATE ingredients SET category = ${after.category}, price = ${after.price}, in_stock = ${after.inStock ? 1 : 0},
      co2e = CASE WHEN ${co2e !== undefined}::boolean THEN ${co2e ?? null}::float8 ELSE co2e END, nutrients = ${JSON.stringify(after.nutrients)},
      nutrient_count = ${Object.keys(after.nutrients).length}, updated_at = ${row.updatedAt ?? actor.now}
    WHERE workspace_id = ${actor.workspaceId} AND name = ${name}`;
  await recordPriceChange(sql, actor, name, before, after, { at: actor.now, source: "import", events });
  return true;
}

/**
 * Write validated formulas inside the caller's transaction, priced from the ingredients as they are in it.
 * @example await writeFormulaImport(tx, 1, readFormulaFile(text), { replace: false, now })
 */
export async function writeFormulaImport(sql: SQL, workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions): Promise<FormulaDetail[]> {
  const ingredients = new Map((await listIngredientDetails(sql, workspaceId)).map((i) => [i.name, i]));
  const built: FormulaDetail[] = [];
  for (const f of formulas) {
    const detail = buildFormula(f, (name) => ingredients.get(name) ?? null, { id: newFormulaId(), now: options.now });
    if (!options.replace && (await formulaExists(sql, workspaceId, detail.id))) throw formulaTaken(f, detail.id);
    built.push(detail);
  }
  for (const detail of built) {
    await saveFormula(sql, workspaceId, detail);
    if (options.events) await recordEvent(sql, formulaUpdatedEvent({ workspaceId, keyId: null, now: options.now }, detail));
  }
  return built;
}

/** The whole `import ingredients`. @example await importIngredients(sql, 1, csvText, "csv", { update: false, now }) // { added: 51, updated: 0 } */
export async function importIngredients(sql: SQL, workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions): Promise<{ added: number; updated: number }> {
  const rows = await checkIngredientImport(sql, workspaceId, text, format, options);
  return writeTransaction(sql, (tx) => writeIngredientImport(tx, workspaceId, rows, options));
}

/** The whole `import formulas`. @example await importFormulas(sql, 1, readFormulaFile(text), { replace: false, now }) */
export async function importFormulas(sql: SQL, workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions): Promise<FormulaDetail[]> {
  return writeTransaction(sql, (tx) => writeFormulaImport(tx, workspaceId, formulas, options));
}
