/** PostgreSQL's twins of ../plans.ts. */
import type { SQL } from "bun";
import { NotFoundError } from "../../domain/errors.ts";
import type { Actor } from "../../domain/ingredient-events.ts";
import type { Plan, PlanBody, PlanSummary } from "../../schemas/plans.ts";
import { bodyText, planNotFound, planOf, plansNaming, planUpdatedEvent, summaryOf, type PlanReference, type PlanRow } from "../plan-rows.ts";
import { recordEvent } from "./events.ts";
import { unmatchable } from "./text.ts";

/** @example await listPlans(sql, 1) */
export async function listPlans(sql: SQL, workspaceId: number): Promise<PlanSummary[]> {
  const rows = (await sql`SELECT id, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM plans WHERE workspace_id = ${workspaceId} ORDER BY updated_at DESC, id`) as PlanRow[];
  return rows.map((r) => summaryOf(planOf(r)));
}

/** @example await findPlan(sql, 1, "december") */
export async function findPlan(sql: SQL, workspaceId: number, id: string): Promise<Plan | null> {
  if (unmatchable(id)) return null;
  const rows = (await sql`SELECT id, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM plans WHERE workspace_id = ${workspaceId} AND id = ${id}`) as PlanRow[];
  return rows[0] ? planOf(rows[0]) : null;
}

/** @example await requirePlan(sql, 1, "nope") // throws NotFoundError */
export async function requirePlan(sql: SQL, workspaceId: number, id: string): Promise<Plan> {
  const found = await findPlan(sql, workspaceId, id);
  if (!found) throw new NotFoundError(planNotFound(id));
  return found;
}

/** @example await putPlan(tx, { workspaceId: 1, keyId, now }, "december", body) */
export async function putPlan(sql: SQL, actor: Actor, id: string, body: PlanBody, events = true): Promise<{ plan: Plan; created: boolean }> {
  const { workspaceId, now } = actor;
  const old = await findPlan(sql, workspaceId, id);
  const createdAt = old?.createdAt ?? now;
  await sql`INSERT INTO plans (workspace_id, id, name, body, created_at, updated_at) VALUES (${workspaceId}, ${id}, ${body.name}, ${bodyText(body)}, ${createdAt}, ${now})
    ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, body = excluded.body, updated_at = excluded.updated_at`;
  if (events) await recordEvent(sql, planUpdatedEvent(actor, { id, name: body.name }));
  return { plan: { id, name: body.name, lines: body.lines, supply: body.supply, createdAt, updatedAt: now }, created: old === null };
}

/** @example await deletePlan(tx, 1, "december") */
export async function deletePlan(sql: SQL, workspaceId: number, id: string): Promise<void> {
  const rows = await sql`DELETE FROM plans WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`;
  if (rows.length === 0) throw new NotFoundError(planNotFound(id));
}

/** @example await importPlans(tx, { workspaceId: 1, keyId: null, now }, [{ id: "december", body }], true) // 1 */
export async function importPlans(sql: SQL, actor: Actor, plans: readonly { id: string; body: PlanBody }[], events: boolean): Promise<number> {
  for (const p of plans) await putPlan(sql, actor, p.id, p.body, events);
  return plans.length;
}

/** @example await plansUsing(sql, 1, { ingredient: "Maize" }) // ["december"] */
export async function plansUsing(sql: SQL, workspaceId: number, ref: PlanReference): Promise<string[]> {
  return plansNaming((await sql`SELECT id, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM plans WHERE workspace_id = ${workspaceId}`) as PlanRow[], ref);
}
