/**
 * One formula's optimization as a pool task (./tasks.ts): everything the solve reads travels in the
 * input as plain data (the formula, the candidates' ingredient details, the what-ifs), so it runs the
 * same in a worker, in the CLI's process and in the tests.
 */
import type { Highs } from "highs";
import type { OptimizeResult } from "../schemas/optimize.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { checkSolveSize } from "./limits.ts";
import { candidateNamesOf } from "./candidates.ts";
import { optimizeFormula, type CandidateDetail, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";

export interface OptimizeInput {
  formula: FormulaToOptimize;
  /** The details of the candidates: the names the formula and `include` mention that the workspace holds. */
  ingredients: CandidateDetail[];
  include: string[];
  /** What-if prices per ton, [name, price]. */
  prices: [string, number][];
  includeOutOfStock: boolean;
  /** A cap on the footprint, kg CO2e per tonne; null: none. */
  maxCo2e: number | null;
}

/** Refuses a formula and candidates over the solver's size limits (400 naming the limit). */
export function checkSize(formula: FormulaToOptimize, candidates: number): void {
  const { nutrients, ingredients, ratios } = formula.constraints;
  const bounded = (b: { min: number | null; max: number | null }) => b.min !== null || b.max !== null;
  checkSolveSize({ candidates, limits: nutrients.filter(bounded).length + ingredients.filter(bounded).length, ratios: (ratios ?? []).length });
}

/**
 * The task's input from a formula, a lookup of the workspace's ingredients and the what-ifs: only the
 * candidates' details are copied, only what the solve reads of each (a third of the clone to a worker
 * was the rest), after the size limits are checked (so a refused problem is never copied to a worker).
 * @example optimizeInput(formula, (n) => byName.get(n) ?? null, NO_OPTIONS).ingredients.length // the candidates found
 */
export function optimizeInput(formula: FormulaToOptimize, lookup: (name: string) => IngredientDetail | null, options: OptimizeOptions): OptimizeInput {
  const ingredients = candidateNamesOf(formula, options).flatMap((name): CandidateDetail[] => {
    const found = lookup(name);
    return found ? [{ name, price: found.price, inStock: found.inStock, co2e: found.co2e, nutrients: found.nutrients }] : [];
  });
  checkSize(formula, ingredients.length);
  // `others` (candidates=all) is already in `ingredients`: the worker needs no second copy of the names.
  return { formula, ingredients, include: [...options.include, ...(options.others ?? [])], ...whatIfInput(options) };
}

/**
 * The part of the input that the what-ifs' values change; the rest depends only on the data and the
 * candidates' names, so the HTTP route keeps it, serialized, for the data's generation.
 * @example whatIfInput({ include: [], prices: new Map([["Maize", 180]]), includeOutOfStock: false }) // { prices: [["Maize", 180]], includeOutOfStock: false, maxCo2e: null }
 */
export function whatIfInput(options: OptimizeOptions): Pick<OptimizeInput, "prices" | "includeOutOfStock" | "maxCo2e"> {
  return { prices: [...options.prices], includeOutOfStock: options.includeOutOfStock, maxCo2e: options.maxCo2e ?? null };
}

/**
 * Checks the size limits again (an input may be built elsewhere), then solves.
 * @example optimizeTask(highs, optimizeInput(formula, lookup, NO_OPTIONS)).status // "optimal"
 */
export function optimizeTask(highs: Highs, input: OptimizeInput): OptimizeResult {
  checkSize(input.formula, input.ingredients.length);
  const byName = new Map(input.ingredients.map((i) => [i.name, i]));
  const options: OptimizeOptions = { include: input.include, prices: new Map(input.prices), includeOutOfStock: input.includeOutOfStock, maxCo2e: input.maxCo2e };
  return optimizeFormula(highs, input.formula, (name) => byName.get(name) ?? null, options);
}
