/**
 * The mixed-integer program of a batch sheet on one HiGHS model (docs/decisions.md#batch-sheets; a
 * sheet tries grid-branch.ts first and comes here when it gives up, or for the nearest amounts when no
 * whole steps keep every limit), also the rounding's window search (window-rounding.ts):
 * columns n_i (whole steps of line i) and d_i ≥ |kg_i − exact kg_i| (the deviation, in units of
 * 10^-scale kg), rows Σ kg = size, the limits (when kept) and two rows per d_i. Objectives change
 * between stages and each stage's optimum becomes a row of the next, so the answer is the
 * lexicographic optimum: cost, then Σ |deviation|, then the amounts in name order, largest first.
 */
import type { Highs, Model, VariableType } from "highs";
import type { GridRow } from "./grid-rows.ts";

/** Integer objectives (every row and objective is integral on whole n): a gap below 1 proves the optimum. */
const MIP_OPTIONS = {
  output_flag: false,
  mip_rel_gap: 0,
  mip_abs_gap: 0.5,
  // Feasibility jump took half the time of a 10-line sheet and found nothing the rest does not (measured on the demo formulas).
  mip_heuristic_run_feasibility_jump: false,
  time_limit: 30,
} as const;
/**
 * The tie stages (deviation, then amounts by name) start from the amounts found and prove them or beat
 * them among amounts of that cost; without presolve, rerun for every stage, the demo's sheets took 0.8 ×
 * the time (the deviation stage of turkey-starter 75 ms instead of 200, two nodes either way) and the
 * same amounts.
 */
const TIE_OPTIONS = { presolve: "off" } as const;

/** A cap on one run (the rounding's: a search must not hold up an answer); a run it stops keeps the best amounts found. */
export interface MipGuard {
  mip_max_nodes: number;
  time_limit: number;
}

export interface GridMip {
  /** Whether the last run proved its answer (false: the guard stopped it; its answer, if any, is only the best found). */
  readonly proven: boolean;
  /** Minimise Σ cost_i × n_i; null when no whole steps meet the rows. */
  minimiseCost(cost: readonly bigint[]): bigint[] | null;
  /** Keep Σ cost_i × n_i ≤ bound from now on. */
  capCost(cost: readonly bigint[], bound: bigint): void;
  /** Minimise Σ d_i and keep it from now on; null when infeasible. */
  minimiseDeviation(current?: bigint[]): bigint[] | null;
  /** Largest amounts in the given column order, each fixed once found. */
  largestInOrder(order: readonly number[], current: bigint[]): bigint[];
  dispose(): void;
}

/**
 * @param steps per line, in units (integers) of 10^-scale kg; `exact` the exact amounts in the same units.
 * @example const mip = gridMip(highs, rows, [5n, 5n], [43n, 57n], [20n, 20n]); try { mip.minimiseCost([228n, 455n]) } finally { mip.dispose() }
 */
export function gridMip(highs: Highs, rows: readonly GridRow[], steps: readonly bigint[], exact: readonly bigint[], most: readonly bigint[], guard?: MipGuard): GridMip {
  const m = steps.length;
  const inf = highs.infinity;
  const model: Model = highs.createModel();
  const integer = highs.constants.variableType.integer as VariableType;
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const lower: number[] = [];
  const upper: number[] = [];
  const push = (entries: [number, number][], lo: number, hi: number) => {
    for (const [j, v] of entries) if (v !== 0) (indices.push(j), values.push(v));
    starts.push(indices.length);
    lower.push(lo);
    upper.push(hi);
  };
  for (const row of rows) push(row.coefficients.map((c, j) => [j, Number(c)]), row.lower === null ? -inf : Number(row.lower), row.upper === null ? inf : Number(row.upper));
  model.passModel({
    numCols: m,
    numRows: lower.length,
    colCost: new Float64Array(m),
    colLower: new Float64Array(m),
    colUpper: Float64Array.from(most, Number),
    rowLower: Float64Array.from(lower),
    rowUpper: Float64Array.from(upper),
    matrix: { format: "csr", numRows: lower.length, numCols: m, starts: Int32Array.from(starts), indices: Int32Array.from(indices), values: Float64Array.from(values) },
    integrality: new Int32Array(m).fill(integer),
  });
  let width = m;
  /** The deviation columns d_i and their two rows each, added when first needed: the cost stage does better without them. */
  const addDeviation = () => {
    if (width > m) return;
    model.addVars(new Float64Array(m), new Float64Array(m).fill(inf));
    width = 2 * m;
    for (let i = 0; i < m; i++) {
      // d_i ≥ step × n_i − exact and d_i ≥ exact − step × n_i.
      model.addRow(-Number(exact[i]!), inf, { indices: Int32Array.from([i, m + i]), values: Float64Array.from([-Number(steps[i]!), 1]) });
      model.addRow(Number(exact[i]!), inf, { indices: Int32Array.from([i, m + i]), values: Float64Array.from([Number(steps[i]!), 1]) });
    }
  };
  model.options.set(guard ? { ...MIP_OPTIONS, ...guard } : MIP_OPTIONS);
  let proven = true;

  const objective = (cost: ArrayLike<number>) => model.changeColsCost({ kind: "range", from: 0, to: width - 1 }, Float64Array.from({ length: width }, (_, j) => cost[j] ?? 0));
  const run = (start?: readonly bigint[]): bigint[] | null => {
    // The current amounts as a start: the stages after the first only have to prove them best or beat them.
    if (start) {
      const colValue = Float64Array.from({ length: width }, (_, j) => (j < m ? Number(start[j]!) : Math.abs(Number(steps[j - m]! * start[j - m]! - exact[j - m]!))));
      model.setSolution({ colValue });
    }
    model.run();
    const status = model.getModelStatus();
    const { modelStatus } = highs.constants;
    proven = status === modelStatus.optimal || status === modelStatus.infeasible;
    if (status === modelStatus.infeasible) return null;
    if (!proven) {
      // mip_max_nodes stops a run with "solution limit".
      const stopped = guard !== undefined && (status === modelStatus.timeLimit || status === modelStatus.solutionLimit);
      if (!stopped) throw new Error(`HiGHS ended a grid program with model status ${status}`);
      if (model.info.get("primal_solution_status") !== highs.constants.solutionStatus.feasible) return null;
    }
    const x = model.getSolution().colValue;
    return Array.from({ length: m }, (_, i) => BigInt(Math.round(x[i]!)));
  };
  const deviation = (n: readonly bigint[]) => n.reduce((sum, v, i) => {
    const d = steps[i]! * v - exact[i]!;
    return sum + (d < 0n ? -d : d);
  }, 0n);

  return {
    get proven() {
      return proven;
    },
    minimiseCost(cost) {
      objective(cost.map(Number));
      return run();
    },
    capCost(cost, bound) {
      const used = [...cost.keys()].filter((j) => cost[j] !== 0n);
      model.addRow(-inf, Number(bound), { indices: Int32Array.from(used), values: Float64Array.from(used, (j) => Number(cost[j]!)) });
    },
    minimiseDeviation(current?: bigint[]) {
      addDeviation();
      model.options.set(TIE_OPTIONS);
      objective([...new Array<number>(m).fill(0), ...new Array<number>(m).fill(1)]);
      const n = run(current);
      if (n === null) return null;
      model.addRow(-inf, Number(deviation(n)), { indices: Int32Array.from({ length: m }, (_, i) => m + i), values: new Float64Array(m).fill(1) });
      return n;
    },
    largestInOrder(order, current) {
      model.options.set(TIE_OPTIONS);
      let n = current;
      order.forEach((j, k) => {
        // A line grows only if another line not yet fixed shrinks (Σ kg = size), so not when every such line is at 0
        // (the last free line among them); a line at its most cannot grow.
        const shrinkable = order.slice(k + 1).some((i) => n[i]! > 0n);
        if (shrinkable && n[j]! < most[j]!) {
          objective(Array.from({ length: width }, (_, c) => (c === j ? -1 : 0)));
          n = run(n) ?? n;
        }
        model.changeColBounds(j, Number(n[j]!), Number(n[j]!));
      });
      return n;
    },
    dispose: () => model.dispose(),
  };
}
