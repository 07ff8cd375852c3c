/**
 * PUT /v1/formulas/:id: one formula written over HTTP, as `import formulas --replace` writes it (the
 * same checks, the same arithmetic), inside one write of the group commit. Written once over
 * src/store/sqlite/formula-put.ts and src/store/pg/formula-put.ts.
 */
import { buildFormula } from "../domain/formula-file.ts";
import { checkPercentSum, formulaUpdatedEvent, unmetLimitsWarnings } from "../domain/formula-writes.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import type { FormulaDetail, FormulaImport } from "../schemas/formulas.ts";
import { recordEvent } from "./events.ts";
import type { FormulaPutStatements } from "./formula-rows.ts";
import { saveFormula } from "./formulas.ts";
import { ingredientRow } from "./ingredients.ts";
import { toDetail } from "./ingredient-rows.ts";
import { all, operation, statements, tx } from "./op.ts";
import { pgFormulaPut } from "./pg/formula-put.ts";
import { sqliteFormulaPut } from "./sqlite/formula-put.ts";

/** What PUT answers: whether the id was new, the detail as GET shows it, and the import's warnings. */
export interface FormulaPut {
  created: boolean;
  formula: FormulaDetail;
  warnings: string[];
}

const q = statements<FormulaPutStatements>(sqliteFormulaPut, pgFormulaPut);

/**
 * Create or replace formula `id`; a replace keeps its `createdAt` unless the body gives one. Fires
 * the opt-in `formula.updated`.
 * @example putFormula(db, actor, "broiler-starter", body) // { created: false, formula, warnings: [] }
 */
export const putFormula = operation(function* (actor: Actor, id: string, body: Omit<FormulaImport, "id">) {
  yield* tx.requireTransaction("putFormula");
  checkPercentSum(body);
  yield* q.lockOutbox();
  const existing = yield* q.createdAt(actor.workspaceId, id);
  const names = [...new Set(body.ingredients.map((row) => row.name))];
  const found = yield* all(...names.map((name) => ingredientRow(actor.workspaceId, name)));
  const ingredients = new Map(names.map((name, i) => [name, found[i] ? toDetail(found[i]) : null]));
  const formula = buildFormula({ formula: { ...body, id }, label: `Formula ${id}` }, (name) => ingredients.get(name) ?? null, { id, now: existing ?? actor.now });
  yield* saveFormula.steps(actor.workspaceId, formula);
  yield* recordEvent.steps(formulaUpdatedEvent(actor, formula));
  const put: FormulaPut = { created: existing === null, formula, warnings: unmetLimitsWarnings(formula) };
  return put;
});
