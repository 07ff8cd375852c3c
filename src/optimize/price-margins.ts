/**
 * Exact price margins of an optimal composition x*, for degenerate optima where the basis's own ranges
 * can be too narrow (docs/decisions.md#least-cost-formulation).
 *
 * x* stays optimal at other prices c' exactly while some dual certificate proves it: row duals y with
 * the sign its bound allows (≥ 0 on a row at its min, ≤ 0 at its max, free on a fixed level, 0 on a
 * row not at a bound) and reduced costs c' − Aᵀy that are 0 for candidates in the mix and ≥ 0 for
 * candidates at 0 (held candidates are fixed and need neither). So the largest rise t of candidate j's
 * price is the linear program
 *   maximise t  over y, t ≥ 0  subject to  (Aᵀy)_i ≤ c_i, = c_i in the mix, with c_j raised by t,
 * and the largest fall likewise with c_j lowered by t; for a candidate at 0 the largest fall is how far
 * its price must drop before it enters. t = 0 is always feasible (the optimum's own duals); t is capped
 * at 10 × the largest price a workspace accepts, so the program is bounded, and reaching the cap means no limit.
 */
import type { Highs } from "highs";
import { SOLVER_OPTIONS, toModelData, type LpSolution } from "./lp.ts";
import { atBound, inMix, type LeastCostProblem } from "./model.ts";

/** Prices are at most 1e9 per ton: a margin this large is no margin. */
const NO_LIMIT = 1e10;

export interface PriceMargins {
  /** How far candidate j's price may rise (per ton) with x* still optimal; Infinity: without limit. */
  up(j: number): number;
  /** How far it may fall; for a candidate at 0, the fall at which it enters. */
  down(j: number): number;
  /** Frees the native model: call in a finally. */
  dispose(): void;
}

/**
 * One native model serves every margin; only t's coefficient moves from candidate to candidate.
 * @example const m = priceMargins(highs, problem, solution); try { m.up(0) } finally { m.dispose() }
 */
export function priceMargins(highs: Highs, problem: LeastCostProblem, solution: LpSolution): PriceMargins {
  const { candidates, rows } = problem;
  const x = solution.x;
  // Dual variables: one per row at a bound, signed as that bound allows.
  const active = rows.flatMap((row, r) => {
    const v = solution.rowValue[r]!;
    const atLower = atBound(v, row.lower);
    const atUpper = atBound(v, row.upper);
    return atLower || atUpper ? [{ r, lower: atUpper ? -Infinity : 0, upper: atLower ? Infinity : 0 }] : [];
  });
  const t = active.length;
  const free = candidates.flatMap((c, i) => (c.held ? [] : [i]));
  const model = highs.createModel(
    toModelData(highs, {
      cost: [...new Array<number>(t).fill(0), -1], // maximise t
      colLower: [...active.map((a) => a.lower), 0],
      colUpper: [...active.map((a) => a.upper), NO_LIMIT],
      rows: free.map((i) => {
        const coefficients = new Float64Array(t + 1);
        active.forEach((a, k) => (coefficients[k] = rows[a.r]!.coefficients[i]!));
        const price = candidates[i]!.price / 100;
        return { coefficients, lower: inMix(x, i) ? price : -Infinity, upper: price };
      }),
    }),
  );
  model.options.set(SOLVER_OPTIONS);
  const { modelStatus } = highs.constants;
  const rowOf = new Map(free.map((i, k) => [i, k]));
  const margin = (j: number, sign: 1 | -1) => {
    const row = rowOf.get(j)!;
    // Price c_j + sign × t/100: the row reads (Aᵀy)_j − sign × t/100 against c_j.
    model.changeCoefficient(row, t, (-sign) / 100);
    model.run();
    const status = model.getModelStatus();
    // Read before the coefficient is reset: a change to the model clears its solution.
    const rise = -model.getObjectiveValue();
    model.changeCoefficient(row, t, 0);
    if (status !== modelStatus.optimal) throw new Error(`HiGHS ended with model status ${status} on a price margin`);
    return rise >= NO_LIMIT * (1 - 1e-9) ? Infinity : Math.max(0, rise);
  };
  return { up: (j) => margin(j, 1), down: (j) => margin(j, -1), dispose: () => model.dispose() };
}
