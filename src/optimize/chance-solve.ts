/**
 * The least-cost mix meeting every chance limit (chance-model.ts), by successive linear approximation
 * (Kelley's cutting planes; docs/decisions.md#optimizing-to-a-confidence-level): solve the LP, add the
 * tangent cut of every chance limit the optimum misses by more than the tolerance, solve again from the
 * last basis (dual simplex: a few pivots per round). Each cut keeps every mix that meets its limit, so
 * the LPs relax the true problem: an infeasible LP means no mix meets the limits, and the first optimum
 * that misses no limit by more than 1e-6 costs at most the true optimum.
 */
import type { Highs, Model } from "highs";
import { BASIS, readSolution, SECOND_TRY, settled, SOLVER_OPTIONS, toModelData, type LpSolution } from "./lp.ts";
import type { LeastCostProblem, Row } from "./model.ts";
import { cutAt, meanAndSd, shortfall, type ChanceLimit } from "./chance-model.ts";
import { lpOf } from "./solve.ts";

/** The most a returned optimum may miss a chance limit, in the nutrient's own unit. */
export const CHANCE_TOLERANCE = 1e-6;
/** LP solves before giving up (a solve that needs more is reported as the solver's failure). */
const MAX_ROUNDS = 500;
/** Rounds a cut may stay slack before it is dropped. */
const IDLE_ROUNDS = 6;

export type ChanceOutcome =
  | { status: "optimal"; problem: LeastCostProblem; solution: LpSolution; rounds: number }
  | { status: "infeasible"; rounds: number };

export interface ChanceOptions {
  /** Per chance limit, how far inward its limit moves (the rounding's room); default 0. */
  margins?: readonly number[];
  /** Mixes to cut at before the first solve (the previous point of a curve): fewer rounds. */
  seeds?: readonly ArrayLike<number>[];
}

/**
 * The optimum of `problem` with every chance limit met at quantile z (z = 0: the LP itself). The answer's
 * problem is the final approximation: the least-cost rows, then the cuts.
 * @example solveChance(highs, problem, chanceLimits(problem.candidates, constraints, sds), normalQuantile(0.95)).status // "optimal"
 */
export function solveChance(highs: Highs, problem: LeastCostProblem, limits: readonly ChanceLimit[], z: number, options: ChanceOptions = {}): ChanceOutcome {
  const margin = (i: number) => options.margins?.[i] ?? 0;
  const rows: Row[] = [...problem.rows];
  const seeded: Row[] = [];
  if (z > 0) for (const seed of options.seeds ?? []) limits.forEach((c, i) => meanAndSd(c, seed).sd > 0 && seeded.push(cutAt(c, z, seed, margin(i))));
  const model = highs.createModel();
  try {
    model.options.set(SOLVER_OPTIONS);
    model.passModel(toModelData(highs, lpOf(problem)));
    const fixed = rows.length;
    /** Per cut row (index − fixed): rounds in a row it has been slack. */
    let idle: number[] = [];
    addRows(highs, model, seeded, rows);
    idle.push(...seeded.map(() => 0));
    // The running average of the optima: its cuts face the many-ingredient optimum from the middle of the vertices around it.
    let centre: Float64Array | null = null;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const solution = run(highs, model);
      if (solution.status === "infeasible") return { status: "infeasible", rounds: round };
      const x = solution.x;
      centre = centre === null ? Float64Array.from(x) : centre.map((v, j) => (v + x[j]!) / 2);
      const cuts: Row[] = [];
      if (z > 0) {
        limits.forEach((c, i) => {
          if (shortfall(c, z, x, margin(i)) <= CHANCE_TOLERANCE) return;
          cuts.push(cutAt(c, z, x, margin(i)));
          if (shortfall(c, z, centre!, margin(i)) > CHANCE_TOLERANCE) cuts.push(cutAt(c, z, centre!, margin(i)));
        });
      }
      if (cuts.length === 0) return { status: "optimal", problem: { ...problem, rows }, solution, rounds: round };
      // Cuts slack for several rounds go (the LP stays small, so each round stays fast); a needed one comes back as a new cut.
      idle = idle.map((n, k) => (solution.rowStatus[fixed + k] === BASIS.basic ? n + 1 : 0));
      const stale = idle.flatMap((n, k) => (n >= IDLE_ROUNDS ? [fixed + k] : []));
      if (stale.length > 0) {
        model.deleteRows({ kind: "set", indices: Int32Array.from(stale) });
        const gone = new Set(stale);
        const kept = rows.filter((_, r) => !gone.has(r));
        rows.length = 0;
        rows.push(...kept);
        idle = idle.filter((_, k) => !gone.has(fixed + k));
      }
      addRows(highs, model, cuts, rows);
      idle.push(...cuts.map(() => 0));
    }
  } finally {
    model.dispose();
  }
  throw new Error(`HiGHS: the confidence solve still missed a chance limit after ${MAX_ROUNDS} linear approximations`);
}

/** The model's next optimum from its current basis; an unsettled end gets one more run with presolve (as lp.ts does). */
function run(highs: Highs, model: Model): LpSolution {
  model.run();
  if (!settled(highs, model)) {
    model.clearSolver();
    model.options.set(SECOND_TRY);
    model.run();
    model.options.set(SOLVER_OPTIONS);
  }
  return readSolution(highs, model, false);
}

/** Appends rows to the model (and to `into`, the problem's copy), in the CSR form HiGHS takes. */
function addRows(highs: Highs, model: Model, added: readonly Row[], into: Row[]): void {
  if (added.length === 0) return;
  const data = toModelData(highs, { cost: added[0]!.coefficients.map(() => 0), colLower: [], colUpper: [], rows: added });
  const matrix = data.matrix as { starts: Int32Array; indices: Int32Array; values: Float64Array };
  model.addRows({
    lower: data.rowLower as Float64Array,
    upper: data.rowUpper as Float64Array,
    matrix: { format: "csr", numRows: added.length, numCols: data.numCols, starts: matrix.starts, indices: matrix.indices, values: matrix.values },
  });
  into.push(...added);
}
