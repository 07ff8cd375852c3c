/** Formulas: each operation written once over the statements of src/store/sqlite/formulas.ts and src/store/pg/formulas.ts. */
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import { usedByPlans } from "./admin-rules.ts";
import { formulaDetailOf, type FormulaFilters, type FormulaStatements } from "./formula-rows.ts";
import { operation, statements } from "./op.ts";
import { pgFormulas } from "./pg/formulas.ts";
import { plansUsing } from "./plans.ts";
import { sqliteFormulas } from "./sqlite/formulas.ts";

export type { FormulaFilters } from "./formula-rows.ts";

const q = statements<FormulaStatements>(sqliteFormulas, pgFormulas);
const notFound = (id: string) => new NotFoundError(`Formula not found: ${id}`);

function* summaries(workspaceId: number, filters: FormulaFilters = {}) {
  return yield* q.summaries(workspaceId, filters.species ?? null, filters.subcategory ?? null);
}

function* find(workspaceId: number, id: string) {
  const row = yield* q.formulaRow(workspaceId, id);
  if (!row) return null;
  return formulaDetailOf(row, yield* q.lines(workspaceId, id));
}

function* required(workspaceId: number, id: string) {
  const found = yield* find(workspaceId, id);
  if (!found) throw notFound(id);
  return found;
}

/** @example listFormulas(db, 1, { species: "Poultry" }) // [{ id, name, species, subcategory, batchSize, totalCost, createdAt }] */
export const listFormulas = operation(summaries);

/** @example findFormula(db, 1, "broiler-starter") // FormulaDetail | null */
export const findFormula = operation(find);

/** @example requireFormula(db, 1, "nope") // throws NotFoundError("Formula not found: nope") */
export const requireFormula = operation(required);

/** Every formula in full, newest first (the export). @example listFormulaDetails(db, 1).length */
export const listFormulaDetails = operation(function* (workspaceId: number) {
  const details: FormulaDetail[] = [];
  for (const s of yield* summaries(workspaceId)) details.push(yield* required(workspaceId, s.id));
  return details;
});

/** @example formulaExists(db, 1, "broiler-starter") // true */
export const formulaExists = operation(function* (workspaceId: number, id: string) {
  return yield* q.exists(workspaceId, id);
});

/**
 * A 404 for an unknown id without reading the formula: what a route checks on every request before
 * answering from its cache.
 * @example requireFormulaId(db, 1, "nope") // throws NotFoundError("Formula not found: nope")
 */
export const requireFormulaId = operation(function* (workspaceId: number, id: string) {
  if (!(yield* q.exists(workspaceId, id))) throw notFound(id);
});

/**
 * Store a formula with its composition lines, replacing any formula with the same id (callers decide
 * whether that is allowed). Call inside a transaction so the formula and its lines land together.
 * @example saveFormula(db, 1, detail)
 */
export const saveFormula = operation(function* (workspaceId: number, f: FormulaDetail) {
  yield* q.deleteFormula(workspaceId, f.id);
  yield* q.insertFormula(workspaceId, f);
  if (f.ingredients.length > 0) yield* q.insertLines(workspaceId, f.id, f.ingredients);
});

/** Refused while a plan names it. @example deleteFormula(db, 1, "broiler-starter") // throws NotFoundError for an unknown id */
export const deleteFormula = operation(function* (workspaceId: number, id: string) {
  const plans = yield* plansUsing.steps(workspaceId, { formula: id });
  if (plans.length > 0) throw new ConflictError(usedByPlans(`Formula ${id}`, plans));
  if (!(yield* q.deleteFormula(workspaceId, id))) throw notFound(id);
});

/** Ids of the formulas whose composition uses an ingredient, in id order. @example formulasUsing(db, 1, "Maize") // ["broiler-starter", ...] */
export const formulasUsing = operation(function* (workspaceId: number, ingredient: string) {
  return yield* q.formulasUsing(workspaceId, ingredient);
});
