/** The non-SQL half of the plans table both backends share: a row to the API's plan and summary, what a plan names, its event. */
import type { NewEvent } from "../domain/events.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import type { Plan, PlanSummary } from "../schemas/plans.ts";

export interface PlanRow {
  id: string;
  name: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

/** @example planOf({ id: "dec", name: "December", body: '{"lines":[],"supply":[]}', createdAt, updatedAt }).lines */
export function planOf(row: PlanRow): Plan {
  const { lines, supply } = JSON.parse(row.body) as Pick<Plan, "lines" | "supply">;
  return { id: row.id, name: row.name, lines, supply, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** @example summaryOf(plan) // { id, name, totalTons, formulas, createdAt, updatedAt } */
export function summaryOf(plan: Plan): PlanSummary {
  const totalTons = Math.round(plan.lines.reduce((s, l) => s + l.tons, 0) * 1000) / 1000;
  return { id: plan.id, name: plan.name, totalTons, formulas: plan.lines.length, createdAt: plan.createdAt, updatedAt: plan.updatedAt };
}

/** What is stored of a plan's body. */
export const bodyText = (plan: Pick<Plan, "lines" | "supply">) => JSON.stringify({ lines: plan.lines, supply: plan.supply });

export const planNotFound = (id: string) => `Plan not found: ${id}`;

/** What a plan may name that a delete must not leave dangling. */
export type PlanReference = { formula: string } | { ingredient: string };

/**
 * Ids of the plans (rows as stored) whose lines name the formula or whose supply names the ingredient, in id order.
 * @example plansNaming(rows, { formula: "broiler-starter" }) // ["december"]
 */
export function plansNaming(rows: readonly PlanRow[], ref: PlanReference): string[] {
  const names = (p: Plan) => ("formula" in ref ? p.lines.some((l) => l.formula === ref.formula) : p.supply.some((s) => s.name === ref.ingredient));
  return rows.map(planOf).filter(names).map((p) => p.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `plan.updated`: ordered per webhook with the plan's other writes (`plan:<id>` where ingredient events
 * put the ingredient's name).
 * @example recordEvent(db, planUpdatedEvent(actor, { id: "december", name: "December" }))
 */
export function planUpdatedEvent(actor: Actor, plan: Pick<Plan, "id" | "name">): NewEvent {
  return { workspaceId: actor.workspaceId, type: "plan.updated", ingredient: `plan:${plan.id}`, payload: { id: plan.id, name: plan.name, timestamp: actor.now }, keyId: actor.keyId, now: actor.now };
}

/** The statements of src/store/plans.ts, each dialect's in src/store/sqlite/plans.ts and src/store/pg/plans.ts. */
export interface PlanStatements {
  /** Newest `updatedAt` first, then id. */
  planRows(workspaceId: number): PlanRow[];
  planRow(workspaceId: number, id: string): PlanRow | null;
  /** Insert, or replace name, body and updatedAt (createdAt kept). */
  upsertPlan(workspaceId: number, id: string, name: string, body: string, createdAt: string, updatedAt: string): void;
  /** Whether a plan was deleted. */
  deletePlan(workspaceId: number, id: string): boolean;
}
