/**
 * One formula's optimization as a pool task (./tasks.ts): everything the solve reads travels in the
 * input as plain data (the formula, the candidates' ingredient details, the what-ifs), so it runs the
 * same in a worker, in the CLI's process and in the tests.
 */
import type { Highs } from "highs";
import type { OptimizeResult } from "../schemas/optimize.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { candidateNames } from "./model.ts";
import { optimizeFormula, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";

export interface OptimizeInput {
  formula: FormulaToOptimize;
  /** The details of every name the formula and the what-ifs mention that the workspace holds. */
  ingredients: IngredientDetail[];
  include: string[];
  /** What-if prices per ton, [name, price]. */
  prices: [string, number][];
  includeOutOfStock: boolean;
}

/**
 * The task's input from a formula, a lookup of the workspace's ingredients and the what-ifs: only the
 * ingredients the solve can read are copied.
 * @example optimizeInput(formula, (n) => byName.get(n) ?? null, NO_OPTIONS).ingredients.length // the candidates found
 */
export function optimizeInput(formula: FormulaToOptimize, lookup: (name: string) => IngredientDetail | null, options: OptimizeOptions): OptimizeInput {
  const names = candidateNames(
    formula.ingredients.map((r) => r.name),
    formula.constraints.ingredients.map((c) => c.name),
    [...options.include, ...options.prices.keys()],
  );
  return {
    formula,
    ingredients: names.flatMap((name) => lookup(name) ?? []),
    include: [...options.include],
    prices: [...options.prices],
    includeOutOfStock: options.includeOutOfStock,
  };
}

/**
 * @example optimizeTask(highs, optimizeInput(formula, lookup, NO_OPTIONS)).status // "optimal"
 */
export function optimizeTask(highs: Highs, input: OptimizeInput): OptimizeResult {
  const byName = new Map(input.ingredients.map((i) => [i.name, i]));
  const options: OptimizeOptions = { include: input.include, prices: new Map(input.prices), includeOutOfStock: input.includeOutOfStock };
  return optimizeFormula(highs, input.formula, (name) => byName.get(name) ?? null, options);
}
