/** Production plans on SQLite (docs/decisions.md#production-plans); PostgreSQL's twins are in pg/plans.ts. */
import type { Database } from "bun:sqlite";
import { NotFoundError } from "../domain/errors.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import type { Plan, PlanBody, PlanSummary } from "../schemas/plans.ts";
import { recordEvent } from "./events.ts";
import { bodyText, planNotFound, planOf, plansNaming, planUpdatedEvent, summaryOf, type PlanReference, type PlanRow } from "./plan-rows.ts";

const COLUMNS = `id, name, body, created_at AS createdAt, updated_at AS updatedAt`;

/** Newest `updatedAt` first, then id. @example listPlans(db, 1)[0].totalTons */
export function listPlans(db: Database, workspaceId: number): PlanSummary[] {
  const rows = db.query(`SELECT ${COLUMNS} FROM plans WHERE workspace_id = ? ORDER BY updated_at DESC, id`).all(workspaceId) as PlanRow[];
  return rows.map((r) => summaryOf(planOf(r)));
}

/** @example findPlan(db, 1, "december") // Plan | null */
export function findPlan(db: Database, workspaceId: number, id: string): Plan | null {
  const row = db.query(`SELECT ${COLUMNS} FROM plans WHERE workspace_id = ? AND id = ?`).get(workspaceId, id) as PlanRow | null;
  return row ? planOf(row) : null;
}

/** @example requirePlan(db, 1, "nope") // throws NotFoundError("Plan not found: nope") */
export function requirePlan(db: Database, workspaceId: number, id: string): Plan {
  const found = findPlan(db, workspaceId, id);
  if (!found) throw new NotFoundError(planNotFound(id));
  return found;
}

/**
 * Store a checked plan (new, or replacing one: its createdAt kept) and fire the opt-in `plan.updated`
 * unless `events` is false (`plan import --no-events`). Inside the caller's transaction.
 * @example putPlan(db, { workspaceId: 1, keyId, now }, "december", body) // { plan, created: true }
 */
export function putPlan(db: Database, actor: Actor, id: string, body: PlanBody, events = true): { plan: Plan; created: boolean } {
  const { workspaceId, now } = actor;
  const old = findPlan(db, workspaceId, id);
  const createdAt = old?.createdAt ?? now;
  db.query(`INSERT INTO plans (workspace_id, id, name, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, body = excluded.body, updated_at = excluded.updated_at`).run(workspaceId, id, body.name, bodyText(body), createdAt, now);
  if (events) recordEvent(db, planUpdatedEvent(actor, { id, name: body.name }));
  return { plan: { id, name: body.name, lines: body.lines, supply: body.supply, createdAt, updatedAt: now }, created: old === null };
}

/** @example deletePlan(db, 1, "december") // throws NotFoundError when there is none */
export function deletePlan(db: Database, workspaceId: number, id: string): void {
  if (db.query("DELETE FROM plans WHERE workspace_id = ? AND id = ?").run(workspaceId, id).changes === 0) throw new NotFoundError(planNotFound(id));
}

/**
 * `plan import`: every plan of the file written in the caller's one transaction, in file order, each
 * firing `plan.updated` unless `events` is false.
 * @example importPlans(db, { workspaceId: 1, keyId: null, now }, [{ id: "december", body }], true) // 1
 */
export function importPlans(db: Database, actor: Actor, plans: readonly { id: string; body: PlanBody }[], events: boolean): number {
  for (const p of plans) putPlan(db, actor, p.id, p.body, events);
  return plans.length;
}

/** Ids of the plans naming a formula (a line) or an ingredient (a supply row). @example plansUsing(db, 1, { formula: "broiler-starter" }) // ["december"] */
export function plansUsing(db: Database, workspaceId: number, ref: PlanReference): string[] {
  return plansNaming(db.query(`SELECT ${COLUMNS} FROM plans WHERE workspace_id = ?`).all(workspaceId) as PlanRow[], ref);
}
