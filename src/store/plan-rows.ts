/** The non-SQL half of the plans table both backends share: a row to the API's plan and summary. */
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
