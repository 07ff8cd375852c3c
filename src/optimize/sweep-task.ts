/**
 * A price sweep as a pool task (./tasks.ts): the formula, the candidates' ingredient details, the
 * what-ifs and the range travel as plain data, so it runs the same in a worker and in the CLI.
 */
import type { Highs } from "highs";
import type { SweepResult } from "../schemas/sweep.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { optimizeInput, type OptimizeInput } from "./optimize-task.ts";
import type { FormulaToOptimize, OptimizeOptions } from "./result.ts";
import type { SweepRange } from "./sweep-params.ts";
import { sweepFormula } from "./sweep-formula.ts";

export interface SweepInput extends OptimizeInput {
  range: SweepRange;
  /** The swept ingredient's details, also when it is no candidate (then the answer is 400 Not a candidate). */
  swept: IngredientDetail | null;
}

/**
 * The task's input, with the optimization's size limits checked first.
 * @example sweepInput(formula, (n) => byName.get(n) ?? null, NO_OPTIONS, { ingredient: "Maize", from: 150, to: 300, points: 51 })
 */
export function sweepInput(formula: FormulaToOptimize, lookup: (name: string) => IngredientDetail | null, options: OptimizeOptions, range: SweepRange): SweepInput {
  return { ...optimizeInput(formula, lookup, options), range, swept: lookup(range.ingredient) };
}

/** @example sweepTask(highs, sweepInput(formula, lookup, NO_OPTIONS, range)).breakpoints */
export function sweepTask(highs: Highs, input: SweepInput): SweepResult {
  const byName = new Map(input.ingredients.map((i) => [i.name, i]));
  if (input.swept) byName.set(input.swept.name, input.swept);
  const options: OptimizeOptions = { include: input.include, prices: new Map(input.prices), includeOutOfStock: input.includeOutOfStock };
  return sweepFormula(highs, input.formula, (name) => byName.get(name) ?? null, options, input.range);
}
