/**
 * `feedbase import ingredients` and `import formulas` (and the demo's), written once over the
 * statements of src/store/sqlite/imports.ts and src/store/pg/imports.ts. Checking a whole file needs
 * the workspace's names, outside any transaction; writing it runs in one short transaction of its own
 * (src/admin/imports.ts), so a 50,000-row import holds the write lock for the writes alone and the
 * running server keeps answering. All or nothing; each created row, and each `--update` that changes a
 * price or stock status, gets its price-history entry and (unless `--no-events`) the API's events in
 * the same transaction.
 */
import { buildFormula, type FileFormula } from "../domain/formula-file.ts";
import { newFormulaId } from "../domain/ids.ts";
import type { FileFormat, IngredientRow } from "../domain/ingredient-file.ts";
import { addedEvent, type Actor } from "../domain/ingredient-events.ts";
import { updatedFields } from "../domain/ingredient-update.ts";
import { formulaUpdatedEvent } from "../domain/formula-writes.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { recordEvent, recordEvents } from "./events.ts";
import { formulaExists, saveFormula } from "./formulas.ts";
import { addedWhileImporting, checkRows, formulaTaken, type FormulaImportOptions, type ImportStatements, type IngredientImportOptions } from "./import-rules.ts";
import { insertIngredient, recordPriceChange } from "./ingredient-changes.ts";
import { isUniqueViolation } from "./ingredient-rows.ts";
import { findIngredient } from "./ingredients.ts";
import { all, operation, statements, tx } from "./op.ts";
import { pgImports } from "./pg/imports.ts";
import type { PriceSource } from "./price-rows.ts";
import { sqliteImports } from "./sqlite/imports.ts";

export type { IngredientImportOptions } from "./import-rules.ts";

const q = statements<ImportStatements>(sqliteImports, pgImports);

/**
 * Read and check an ingredient file (CSV or JSON) against the workspace; throws a ValidationError
 * naming the first bad row. Reads only: call it before the transaction that writes the rows.
 * @example const rows = checkIngredientImport(db, 1, csvText, "csv", { update: false, now })
 */
export const checkIngredientImport = operation(function* (workspaceId: number, text: string, format: FileFormat, options: IngredientImportOptions) {
  return checkRows(text, format, yield* q.names(workspaceId), options);
});

/** New rows sent together: on PostgreSQL a chunk costs about one round trip, not two a row. */
const INSERT_CHUNK = 500;

/**
 * Write checked rows inside the caller's transaction, in file order; with `events`, each change fires
 * what the API fires for it, in that order (the chunk of new rows ahead of an `--update` is written,
 * with its events, before it).
 * @example transaction(db, () => writeIngredientImport(db, 1, rows, { update: false, now, events: true })) // { added: 51, updated: 0 }
 */
export const writeIngredientImport = operation(function* (workspaceId: number, rows: readonly IngredientRow[], options: IngredientImportOptions) {
  yield* tx.requireTransaction("writeIngredientImport");
  const source = options.source ?? "import";
  const actor: Actor = { workspaceId, keyId: null, now: options.now };
  const events = options.events === true;
  if (!options.update) {
    // Every row is new: all of them, then their events. PostgreSQL's outbox lock (which every API write
    // waits for) is then held for the events and the commit only, not the whole file: held from the
    // first row, a 4,000-row import stalled the API's writes for over a second.
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) yield* insertChunk(actor, rows.slice(i, i + INSERT_CHUNK), source, false);
    if (events) {
      yield* q.holdOutbox();
      yield* recordEvents.steps(rows.map((row) => addedEvent(actor, row.input)));
    }
    return { added: rows.length, updated: 0 };
  }
  // The API's writes take it first too: event ids then commit in order (src/store/pg/events.ts).
  if (events) yield* q.holdOutbox();
  let updated = 0;
  let added: IngredientRow[] = [];
  for (const row of rows) {
    if (events && added.length > 0) {
      yield* insertChunk(actor, added, source, events);
      added = [];
    }
    if (yield* updateIngredient(actor, row, events)) updated++;
    else {
      added.push(row);
      if (added.length < INSERT_CHUNK) continue;
      yield* insertChunk(actor, added, source, events);
      added = [];
    }
  }
  yield* insertChunk(actor, added, source, events);
  return { added: rows.length - updated, updated };
});

/** One new row; its failure is noted in `failures` at its index before it goes on up. */
function* insertRow(actor: Actor, row: IngredientRow, source: PriceSource, failures: unknown[], index: number) {
  try {
    yield* insertIngredient.steps(actor.workspaceId, row.input, source, row.updatedAt ?? actor.now, row.createdAt ?? actor.now);
  } catch (error) {
    failures[index] = error;
    throw error;
  }
}

/**
 * New rows sent together, then their `ingredient.added` events in order. A name added by someone else
 * between the check and this write still rejects the whole file. On SQLite the first failure stops the
 * chunk: after some (a full disk) SQLite has ended the transaction, and a row written behind it would
 * commit on its own.
 */
function* insertChunk(actor: Actor, chunk: readonly IngredientRow[], source: PriceSource, events: boolean) {
  if (chunk.length === 0) return;
  const failures: unknown[] = [];
  try {
    yield* all(...chunk.map((row, i) => insertRow(actor, row, source, failures, i)));
  } catch (error) {
    // On PostgreSQL one failure aborts the transaction and fails every statement behind it, those of
    // earlier rows' history entries included: name the row that was taken, if one was.
    const taken = failures.findIndex((failure) => failure !== undefined && isUniqueViolation(failure));
    if (taken !== -1) throw addedWhileImporting(chunk[taken]!);
    throw error;
  }
  if (events) yield* recordEvents.steps(chunk.map((row) => addedEvent(actor, row.input)));
}

/**
 * `--update`: the fields the row names replace the stored ones (updatedFields); false when the name is
 * new. A changed price or stock status is recorded at the import's time: the history is the order in
 * which prices took effect here, whatever updatedAt the file carries.
 */
function* updateIngredient(actor: Actor, row: IngredientRow, events: boolean) {
  const { name } = row.input;
  const stored = yield* q.lockedRow(actor.workspaceId, name);
  if (!stored) return false;
  const before = { category: stored.category, price: stored.price, inStock: stored.inStock === 1, nutrients: JSON.parse(stored.nutrients) as Record<string, number> };
  const after = updatedFields(before, row);
  yield* q.updateRow(actor.workspaceId, name, after, row.input.co2e, row.updatedAt ?? actor.now);
  yield* recordPriceChange.steps(actor, name, before, after, { at: actor.now, source: "import", events });
  return true;
}

/**
 * Write validated formulas (see `readFormulaFile`) inside the caller's transaction: prices and nutrients
 * are read, and every figure computed, inside it, so no ingredient can vanish in between. An existing
 * id rejects the file unless `replace`.
 * @example transaction(db, () => writeFormulaImport(db, 1, readFormulaFile(text), { replace: false, now })) // FormulaDetail[]
 */
export const writeFormulaImport = operation(function* (workspaceId: number, formulas: readonly FileFormula[], options: FormulaImportOptions) {
  yield* tx.requireTransaction("writeFormulaImport");
  const names = [...new Set(formulas.flatMap((f) => f.formula.ingredients.map((row) => row.name)))];
  const found = yield* all(...names.map((name) => findIngredient.steps(workspaceId, name)));
  const ingredients = new Map(names.map((name, i) => [name, found[i]!]));
  const built: FormulaDetail[] = [];
  for (const f of formulas) {
    const detail = buildFormula(f, (name) => ingredients.get(name) ?? null, { id: newFormulaId(), now: options.now });
    if (!options.replace && (yield* formulaExists.steps(workspaceId, detail.id))) throw formulaTaken(f, detail.id);
    built.push(detail);
  }
  for (const detail of built) {
    yield* saveFormula.steps(workspaceId, detail);
    if (options.events) yield* recordEvent.steps(formulaUpdatedEvent({ workspaceId, keyId: null, now: options.now }, detail));
  }
  return built;
});
