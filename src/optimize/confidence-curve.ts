/**
 * The cost of assurance (GET /v1/formulas/:id/confidence; docs/decisions.md#optimizing-to-a-confidence-level):
 * the rounded least-cost mix at N evenly spaced confidence levels, a pool task on plain data. Each point
 * starts from the cuts at the previous point's optimum (re-taken at its own z), so a curve costs less
 * than N separate solves.
 */
import type { Highs } from "highs";
import { round } from "../domain/formula-math.ts";
import { chanceLimits } from "./chance-model.ts";
import { chanceRounded } from "./chance-rounding.ts";
import { solveChance } from "./chance-solve.ts";
import { chanceSetting, type ConfidenceInput } from "./chance-task.ts";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import { checkSize } from "./optimize-task.ts";
import { costPerTonOf } from "./result.ts";

export interface CurveInput extends Omit<ConfidenceInput, "confidence"> {
  from: number;
  to: number;
  points: number;
}

export interface CurvePoint {
  confidence: number;
  /** null: no mix meets every limit with this probability. */
  costPerTon: number | null;
  ingredients: { name: string; percent: number }[] | null;
}

/**
 * The levels of a curve: `points` evenly spaced from `from` to `to`, both ends exact.
 * @example curveLevels(0.5, 0.99, 3) // [0.5, 0.745, 0.99]
 */
export function curveLevels(from: number, to: number, points: number): number[] {
  return Array.from({ length: points }, (_, k) => (k === points - 1 ? to : from + ((to - from) * k) / (points - 1)));
}

/**
 * @example confidenceCurveTask(highs, { ...optimizeInput(formula, lookup, NO_OPTIONS), sds, from: 0.5, to: 0.99, points: 10 }).points.length // 10
 */
export function confidenceCurveTask(highs: Highs, input: CurveInput): { id: string; name: string; points: CurvePoint[] } {
  checkSize(input.formula, input.ingredients.length);
  let seed: Float64Array | null = null;
  const points = curveLevels(input.from, input.to, input.points).map((confidence): CurvePoint => {
    const { problem, z } = chanceSetting(input, confidence);
    const limits = chanceLimits(problem.candidates, input.formula.constraints, input.sds);
    const solved = solveChance(highs, problem, limits, z, { seeds: seed ? [seed] : [] });
    const shown = round(confidence, 4);
    if (solved.status === "infeasible") return { confidence: shown, costPerTon: null, ingredients: null };
    seed = solved.solution.x;
    const { units } = chanceRounded(highs, problem, limits, z, solved);
    const mix = problem.candidates.flatMap((c, j) => (units[j] === 0 ? [] : [{ name: c.name, percent: units[j]! / UNITS_PER_PERCENT, price: c.price }]));
    mix.sort((a, b) => b.percent - a.percent || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { confidence: shown, costPerTon: costPerTonOf(mix), ingredients: mix.map(({ name, percent }) => ({ name, percent })) };
  });
  return { id: input.formula.id, name: input.formula.name, points };
}
