/**
 * The cost–CO2e Pareto frontier of a formula (docs/decisions.md#carbon-footprint), unrounded: from the
 * least-cost mix to the least-CO2e mix, N points evenly spaced in footprint, each the cheapest mix at
 * its footprint. Plain data in and out, so it runs wherever a solve runs.
 *
 * The cheapest cost under a cap E, cost(E), is convex and non-increasing in E (a parametric LP); between
 * the least-CO2e footprint E_lo and E_hi, the least footprint among least-cost mixes, it strictly
 * decreases, so each cap there binds and each point's mix sits exactly at its footprint.
 */
import type { Highs } from "highs";
import type { FormulaConstraints } from "../domain/formula-math.ts";
import { co2eCoefficients, unknownCo2e, withCo2eCap } from "./co2e.ts";
import { readSolution, SOLVER_OPTIONS, toModelData, type LpSolution } from "./lp.ts";
import { buildProblem, costPerTon, type Candidate, type LeastCostProblem } from "./model.ts";
import { repairsOf, type Repair } from "./repairs.ts";
import { lpOf } from "./solve.ts";

export interface FrontierInput {
  candidates: Candidate[];
  constraints: FormulaConstraints;
  /** 2..51: how many points when the ends differ. */
  points: number;
}

export interface FrontierPoint {
  /** kg CO2e per tonne: the cap this point was solved at (its mix meets it exactly). */
  co2e: number;
  /** Cost per tonne of the mix. */
  cost: number;
  /** Percent per candidate, in candidate order. */
  x: number[];
  /** d(cost per tonne)/d(cap) at this point (≤ 0; 0 at a least-cost end where the cap does not bind). */
  shadowPrice: number;
}

export type Frontier =
  | { status: "optimal"; candidates: Candidate[]; heldOut: string[]; points: FrontierPoint[] }
  | { status: "infeasible"; candidates: Candidate[]; heldOut: string[]; conflicts: Repair[] };

/** A reduced cost or dual above this is not zero (cost per tonne per percent or per unit of a limit). */
const NONZERO = 1e-9;
/** Ends this close (relative) are one mix: the frontier is then one point. */
const SAME_FOOTPRINT = 1e-7;

/**
 * One model for the whole frontier, warm-started from solve to solve: each next point moves one row
 * bound of the last optimum, which the dual simplex repairs in a few pivots (a cold solve per point took
 * 115 ms for 11 points of a 60 × 30 formula, over the 100 ms target).
 * @example frontierOf(highs, { candidates, constraints, points: 11 }).points.map((p) => p.co2e) // [612.3, 590.1, …, 412.5]
 */
export function frontierOf(highs: Highs, input: FrontierInput): Frontier {
  const problem = withCo2eCap(buildProblem(input.candidates, input.constraints), Infinity);
  const { candidates } = problem;
  const heldOut = unknownCo2e(input.candidates);
  const lp = lpOf(problem);
  return highs.withModel(toModelData(highs, lp), (model): Frontier => {
    model.options.set(SOLVER_OPTIONS);
    const run = () => {
      model.run();
      const status = model.getModelStatus();
      // A warm start that ends undecided (a problem at the edge of feasibility) gets one cold run.
      if (status !== highs.constants.modelStatus.optimal && status !== highs.constants.modelStatus.infeasible) {
        model.clearSolver();
        model.run();
      }
      return readSolution(highs, model, false);
    };
    const cheapest = run();
    if (cheapest.status === "infeasible") {
      return { status: "infeasible", candidates, heldOut, conflicts: repairsOf(highs, { candidates, rows: problem.rows.slice(0, -1) }) };
    }
    const footprint = co2eCoefficients(candidates);
    const infinite = (v: number) => (v === Infinity ? highs.infinity : v === -Infinity ? -highs.infinity : v);
    const setRow = (r: number, lower: number, upper: number) => model.changeRowBounds(r, infinite(lower), infinite(upper));
    const setCol = (j: number, upper: number) => model.changeColBounds(j, 0, infinite(upper));
    // The least footprint among least-cost mixes: on the optimal face (see optimalFace), footprint as objective.
    const face = optimalFace(problem, cheapest);
    face.columns.forEach((j) => setCol(j, 0));
    face.rows.forEach(({ r, level }) => setRow(r, level, level));
    model.changeColsCost({ kind: "range", from: 0, to: candidates.length - 1 }, footprint);
    const high = optimalOrThrow(run()).objective;
    face.columns.forEach((j) => setCol(j, Infinity));
    face.rows.forEach(({ r }) => setRow(r, problem.rows[r]!.lower, problem.rows[r]!.upper));
    const low = optimalOrThrow(run()).objective;
    model.changeColsCost({ kind: "range", from: 0, to: candidates.length - 1 }, Float64Array.from(lp.cost));

    const span = high - low;
    const caps = span <= SAME_FOOTPRINT * Math.max(1, Math.abs(high)) ? [high] : Array.from({ length: input.points }, (_, k) => (k === input.points - 1 ? low : high - (k * span) / (input.points - 1)));
    const cap = problem.rows.length - 1;
    const points = caps.map((e) => {
      setRow(cap, -Infinity, e);
      const solution = optimalOrThrow(run());
      const x = Array.from(solution.x, (v) => Math.max(0, v));
      return { co2e: e, cost: costPerTon(candidates, x), x, shadowPrice: Math.min(0, solution.rowDual[cap]!) };
    });
    return { status: "optimal", candidates, heldOut, points };
  });
}

function optimalOrThrow(solution: LpSolution): LpSolution {
  // Every cap lies between the least footprint and one a least-cost mix reaches: a mix exists.
  if (solution.status !== "optimal") throw new Error("the frontier lost its feasible mix");
  return solution;
}

/**
 * The least-cost mixes, exactly: by complementary slackness a feasible mix is least-cost if and only if
 * every candidate with a positive reduced cost is at 0 and every limit with a non-zero dual is at the
 * bound it holds. (A cost cap at the least cost would need a slack, and a slack lets the footprint
 * drift by slack ÷ abatement cost, 3e-5 kg per tonne on a plain soybean choice.)
 */
function optimalFace(problem: LeastCostProblem, optimum: LpSolution): { columns: number[]; rows: { r: number; level: number }[] } {
  const columns = problem.candidates.flatMap((c, j) => (optimum.colDual[j]! > NONZERO && !c.held ? [j] : []));
  const rows = problem.rows.flatMap((row, r) => {
    const dual = optimum.rowDual[r]!;
    if (dual > NONZERO && Number.isFinite(row.lower)) return [{ r, level: row.lower }];
    if (dual < -NONZERO && Number.isFinite(row.upper)) return [{ r, level: row.upper }];
    return [];
  });
  return { columns, rows };
}
