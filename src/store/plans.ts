/** Production plans (docs/decisions.md#production-plans), each operation written once over src/store/sqlite/plans.ts and src/store/pg/plans.ts. */
import { NotFoundError } from "../domain/errors.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import type { PlanBody } from "../schemas/plans.ts";
import { recordEvent } from "./events.ts";
import { operation, statements } from "./op.ts";
import { pgPlans } from "./pg/plans.ts";
import { bodyText, planNotFound, planOf, plansNaming, planUpdatedEvent, summaryOf, type PlanReference, type PlanStatements } from "./plan-rows.ts";
import { sqlitePlans } from "./sqlite/plans.ts";

const q = statements<PlanStatements>(sqlitePlans, pgPlans);

/** Newest `updatedAt` first, then id. @example listPlans(db, 1)[0].totalTons */
export const listPlans = operation(function* (workspaceId: number) {
  return (yield* q.planRows(workspaceId)).map((r) => summaryOf(planOf(r)));
});

function* find(workspaceId: number, id: string) {
  const row = yield* q.planRow(workspaceId, id);
  return row ? planOf(row) : null;
}

/** @example findPlan(db, 1, "december") // Plan | null */
export const findPlan = operation(find);

/** @example requirePlan(db, 1, "nope") // throws NotFoundError("Plan not found: nope") */
export const requirePlan = operation(function* (workspaceId: number, id: string) {
  const found = yield* find(workspaceId, id);
  if (!found) throw new NotFoundError(planNotFound(id));
  return found;
});

function* put(actor: Actor, id: string, body: PlanBody, events = true) {
  const { workspaceId, now } = actor;
  const old = yield* find(workspaceId, id);
  const createdAt = old?.createdAt ?? now;
  yield* q.upsertPlan(workspaceId, id, body.name, bodyText(body), createdAt, now);
  if (events) yield* recordEvent.steps(planUpdatedEvent(actor, { id, name: body.name }));
  return { plan: { id, name: body.name, lines: body.lines, supply: body.supply, createdAt, updatedAt: now }, created: old === null };
}

/**
 * Store a checked plan (new, or replacing one: its createdAt kept) and fire the opt-in `plan.updated`
 * unless `events` is false (`plan import --no-events`). Inside the caller's transaction.
 * @example putPlan(db, { workspaceId: 1, keyId, now }, "december", body) // { plan, created: true }
 */
export const putPlan = operation(put);

/** @example deletePlan(db, 1, "december") // throws NotFoundError when there is none */
export const deletePlan = operation(function* (workspaceId: number, id: string) {
  if (!(yield* q.deletePlan(workspaceId, id))) throw new NotFoundError(planNotFound(id));
});

/**
 * `plan import`: every plan of the file written in the caller's one transaction, in file order, each
 * firing `plan.updated` unless `events` is false.
 * @example importPlans(db, { workspaceId: 1, keyId: null, now }, [{ id: "december", body }], true) // 1
 */
export const importPlans = operation(function* (actor: Actor, plans: readonly { id: string; body: PlanBody }[], events: boolean) {
  for (const p of plans) yield* put(actor, p.id, p.body, events);
  return plans.length;
});

/** Ids of the plans naming a formula (a line) or an ingredient (a supply row). @example plansUsing(db, 1, { formula: "broiler-starter" }) // ["december"] */
export const plansUsing = operation(function* (workspaceId: number, ref: PlanReference) {
  return plansNaming(yield* q.planRows(workspaceId), ref);
});
