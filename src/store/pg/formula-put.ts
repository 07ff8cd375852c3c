/** PostgreSQL's twin of ../formula-put.ts. */
import type { SQL } from "bun";
import { buildFormula } from "../../domain/formula-file.ts";
import { checkPercentSum, formulaUpdatedEvent, unmetLimitsWarnings } from "../../domain/formula-writes.ts";
import type { Actor } from "../../domain/ingredient-events.ts";
import type { FormulaImport } from "../../schemas/formulas.ts";
import type { FormulaPut } from "../formula-put.ts";
import { saveFormula } from "../formulas.ts";
import { lockOutbox, recordEvent } from "./events.ts";
import { findIngredient } from "../ingredients.ts";
import { pipelined } from "./pipelined.ts";

/** @example await putFormula(tx, actor, "broiler-starter", body) // { created: false, formula, warnings: [] } */
export async function putFormula(sql: SQL, actor: Actor, id: string, body: Omit<FormulaImport, "id">): Promise<FormulaPut> {
  checkPercentSum(body);
  // First, as every write with an event: ids commit in order, and a concurrent PUT of the same id waits here.
  await lockOutbox(sql);
  const [existing] = (await sql`SELECT created_at AS "createdAt" FROM formulas WHERE workspace_id = ${actor.workspaceId} AND id = ${id}`) as { createdAt: string }[];
  // Sent together: one round trip for the formula's ingredients.
  const names = [...new Set(body.ingredients.map((row) => row.name))];
  const found = await pipelined(...names.map((name) => findIngredient(sql, actor.workspaceId, name)));
  const ingredients = new Map(names.map((name, i) => [name, found[i]!]));
  const formula = buildFormula({ formula: { ...body, id }, label: `Formula ${id}` }, (name) => ingredients.get(name) ?? null, { id, now: existing?.createdAt ?? actor.now });
  await saveFormula(sql, actor.workspaceId, formula);
  await recordEvent(sql, formulaUpdatedEvent(actor, formula));
  return { created: existing === undefined, formula, warnings: unmetLimitsWarnings(formula) };
}
