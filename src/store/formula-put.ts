/**
 * PUT /v1/formulas/:id: one formula written over HTTP, as `import formulas --replace` writes it (the
 * same checks, the same arithmetic), inside one write of the group commit.
 */
import type { Database } from "bun:sqlite";
import { buildFormula } from "../domain/formula-file.ts";
import { checkPercentSum, formulaUpdatedEvent, unmetLimitsWarnings } from "../domain/formula-writes.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import type { FormulaDetail, FormulaImport } from "../schemas/formulas.ts";
import { recordEvent } from "./events.ts";
import { saveFormula } from "./formulas.ts";
import { findIngredient } from "./ingredients.ts";
import { requireTransaction } from "./transaction.ts";

/** What PUT answers: whether the id was new, the detail as GET shows it, and the import's warnings. */
export interface FormulaPut {
  created: boolean;
  formula: FormulaDetail;
  warnings: string[];
}

/**
 * Create or replace formula `id`; a replace keeps its `createdAt` unless the body gives one. Fires
 * the opt-in `formula.updated`.
 * @example putFormula(db, actor, "broiler-starter", body) // { created: false, formula, warnings: [] }
 */
export function putFormula(db: Database, actor: Actor, id: string, body: Omit<FormulaImport, "id">): FormulaPut {
  requireTransaction(db, "putFormula");
  checkPercentSum(body);
  const existing = db.query("SELECT created_at AS createdAt FROM formulas WHERE workspace_id = ? AND id = ?").get(actor.workspaceId, id) as { createdAt: string } | null;
  const formula = buildFormula({ formula: { ...body, id }, label: `Formula ${id}` }, (name) => findIngredient(db, actor.workspaceId, name), { id, now: existing?.createdAt ?? actor.now });
  saveFormula(db, actor.workspaceId, formula);
  recordEvent(db, formulaUpdatedEvent(actor, formula));
  return { created: existing === null, formula, warnings: unmetLimitsWarnings(formula) };
}
