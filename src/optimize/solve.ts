/**
 * Solve a formula's least-cost problem and, from the same optimum, its sensitivity; or, when no mix
 * meets the limits, the repairs. Unrounded: the tests check these figures against re-solves and a
 * second solver, and `result.ts` rounds them for people (the mix through rounding.ts).
 */
import type { Highs } from "highs";
import { solveLp, type DenseLp, type LpSolution } from "./lp.ts";
import type { LeastCostProblem } from "./model.ts";
import { repairsOf, type Repair } from "./repairs.ts";
import { sensitivityOf, type Sensitivity } from "./sensitivity.ts";

export type LeastCostOutcome =
  | { status: "optimal"; problem: LeastCostProblem; solution: LpSolution; sensitivity: Sensitivity }
  | { status: "infeasible"; problem: LeastCostProblem; conflicts: Repair[] };

/**
 * The problem as the solver takes it: cost per ton = Σ price/100 × x; held candidates fixed at 0.
 * @example solveLp(highs, lpOf(problem), { ranging: false }).objective // cost per ton
 */
export function lpOf(problem: LeastCostProblem, prices?: ArrayLike<number>): DenseLp {
  const { candidates } = problem;
  return {
    cost: candidates.map((c, j) => (prices ? prices[j]! : c.price) / 100),
    colLower: new Float64Array(candidates.length),
    colUpper: candidates.map((c) => (c.held ? 0 : Infinity)),
    rows: problem.rows,
  };
}

/**
 * @example const outcome = solveLeastCost(highs, buildProblem(candidates, formula.constraints)); outcome.status // "optimal"
 */
export function solveLeastCost(highs: Highs, problem: LeastCostProblem): LeastCostOutcome {
  const solution = solveLp(highs, lpOf(problem), { ranging: true });
  if (solution.status === "infeasible") return { status: "infeasible", problem, conflicts: repairsOf(highs, problem) };
  return { status: "optimal", problem, solution, sensitivity: sensitivityOf(highs, problem, solution) };
}
