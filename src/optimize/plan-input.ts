/**
 * The plain-data input of a plan's optimization from the stored plan and reads of the workspace (its
 * formulas, every ingredient), shared by the route and `feedbase plan optimize`.
 */
import { ValidationError } from "../domain/errors.ts";
import type { Plan } from "../schemas/plans.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import type { PlanInput } from "./plan-task.ts";

/** What a plan's optimization may be asked beyond what-if prices. */
export type PlanOptions = Pick<PlanInput, "includeOutOfStock" | "candidates" | "maxCo2e">;
export const NO_PLAN_OPTIONS: PlanOptions = { includeOutOfStock: false, candidates: "formula", maxCo2e: null };

/**
 * @example planInput(plan, (id) => store.requireFormula(ws, id), await store.listIngredientDetails(ws), [], NO_PLAN_OPTIONS)
 */
export async function planInput(plan: Plan, formula: (id: string) => FormulaDetail | Promise<FormulaDetail>, ingredients: IngredientDetail[], prices: [string, number][], options: PlanOptions = NO_PLAN_OPTIONS): Promise<PlanInput> {
  const names = new Set(ingredients.map((i) => i.name));
  for (const [name] of prices) if (!names.has(name)) throw new ValidationError(`Unknown ingredient: ${name}`);
  const lines = [];
  for (const l of plan.lines) lines.push({ formula: await formula(l.formula), tons: l.tons });
  return { id: plan.id, name: plan.name, lines, supply: plan.supply, ingredients, prices, ...options };
}
