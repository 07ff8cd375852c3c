/**
 * One call into HiGHS: a dense problem in, detached arrays out (WebAssembly memory is not
 * garbage-collected: the solves share one kept native model, and any other model is freed in a
 * `finally`). Simplex without presolve, so an optimum comes with a basis, duals of the rows as given and ranging.
 */
import type { Highs, Model, ModelData, RangingResult } from "highs";

/** The LP in the shape this module builds: minimise Σ cost × x, lower ≤ A x ≤ upper, colLower ≤ x ≤ colUpper. */
export interface DenseLp {
  cost: ArrayLike<number>;
  colLower: ArrayLike<number>;
  colUpper: ArrayLike<number>;
  rows: ReadonlyArray<{ coefficients: ArrayLike<number>; lower: number; upper: number }>;
}

export interface LpSolution {
  status: "optimal" | "infeasible";
  objective: number;
  x: Float64Array;
  rowValue: Float64Array;
  /** d(objective)/d(active bound) per row, as HiGHS reports it. */
  rowDual: Float64Array;
  /** Reduced costs. */
  colDual: Float64Array;
  colStatus: Int32Array;
  rowStatus: Int32Array;
  ranging: RangingResult | null;
}

/** Tight tolerances: the result must meet every limit within 1e-6 in the limit's own unit (kcal/kg too). */
export const SOLVER_OPTIONS = {
  output_flag: false,
  presolve: "off",
  solver: "simplex",
  primal_feasibility_tolerance: 1e-9,
  dual_feasibility_tolerance: 1e-9,
} as const;
/**
 * On a problem at the edge of feasibility (limits 1e-7 apart) simplex without presolve can end with an
 * unknown status; a second run with presolve settles it (its basis and duals are postsolved).
 */
export const SECOND_TRY = { ...SOLVER_OPTIONS, presolve: "on" } as const;

/** HiGHS's basis status codes (`highs.constants.basisStatus`). */
export const BASIS = { lower: 0, basic: 1, upper: 2 } as const;

/**
 * The sparse (CSR) model HiGHS takes; infinite bounds become `highs.infinity`.
 * @example withModel(highs, toModelData(highs, lp), (m) => m.run())
 */
export function toModelData(highs: Highs, lp: DenseLp): ModelData {
  const numCols = lp.cost.length;
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const row of lp.rows) {
    for (let j = 0; j < numCols; j++) {
      const a = row.coefficients[j]!;
      if (a !== 0) {
        indices.push(j);
        values.push(a);
      }
    }
    starts.push(indices.length);
  }
  const finite = (v: number) => (v === Infinity ? highs.infinity : v === -Infinity ? -highs.infinity : v);
  return {
    numCols,
    numRows: lp.rows.length,
    colCost: Float64Array.from(lp.cost),
    colLower: Float64Array.from(lp.colLower, finite),
    colUpper: Float64Array.from(lp.colUpper, finite),
    rowLower: Float64Array.from(lp.rows, (r) => finite(r.lower)),
    rowUpper: Float64Array.from(lp.rows, (r) => finite(r.upper)),
    matrix: { format: "csr", numRows: lp.rows.length, numCols, starts: Int32Array.from(starts), indices: Int32Array.from(indices), values: Float64Array.from(values) },
  };
}

/**
 * One native model per runtime, kept and refilled for every solve: creating a HiGHS instance costs
 * more than solving a formula (1.6 ms against 0.2 ms to pass a new problem), and a kept instance is
 * memory allocated once, not per solve. Solves are synchronous and never nested, so one is enough.
 */
const scratch = new WeakMap<Highs, Model>();

function scratchModel(highs: Highs): Model {
  let model = scratch.get(highs);
  if (!model) {
    model = highs.createModel();
    scratch.set(highs, model);
  }
  return model;
}

/**
 * Solve once; `ranging` asks for cost and bound ranging of the optimal basis. The kept model's solver
 * state is cleared first, so no earlier solve's basis steers this one: the same problem gets the same answer.
 * @example const s = solveLp(highs, lp, { ranging: true }); s.status // "optimal"
 */
export function solveLp(highs: Highs, lp: DenseLp, options: { ranging: boolean }): LpSolution {
  const model = scratchModel(highs);
  model.clearSolver();
  model.options.set(SOLVER_OPTIONS);
  model.passModel(toModelData(highs, lp));
  model.run();
  if (!settled(highs, model)) {
    model.clearSolver();
    model.options.set(SECOND_TRY);
    model.run();
  }
  return readSolution(highs, model, options.ranging);
}

/** Whether the last run ended optimal or infeasible (anything else earns a second try with presolve). */
export const settled = (highs: Highs, model: Model) => {
  const status = model.getModelStatus();
  return status === highs.constants.modelStatus.optimal || status === highs.constants.modelStatus.infeasible;
};

/** The outcome of the last run of a model; anything but optimal or infeasible is a solver failure. */
export function readSolution(highs: Highs, model: Model, ranging: boolean): LpSolution {
  const status = model.getModelStatus();
  const { modelStatus } = highs.constants;
  if (status === modelStatus.infeasible) {
    const empty = new Float64Array(0);
    return { status: "infeasible", objective: NaN, x: empty, rowValue: empty, rowDual: empty, colDual: empty, colStatus: new Int32Array(0), rowStatus: new Int32Array(0), ranging: null };
  }
  if (status !== modelStatus.optimal) throw new Error(`HiGHS ended with model status ${status}`);
  const solution = model.getSolution();
  const basis = model.getBasis();
  return {
    status: "optimal",
    objective: model.getObjectiveValue(),
    x: solution.colValue,
    rowValue: solution.rowValue,
    rowDual: solution.rowDual,
    colDual: solution.colDual,
    colStatus: basis.colStatus,
    rowStatus: basis.rowStatus,
    ranging: ranging ? model.getRanging() : null,
  };
}
