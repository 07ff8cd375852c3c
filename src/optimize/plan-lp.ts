/**
 * The multi-blend linear program of a production plan (docs/decisions.md#production-plans): one
 * column per formula and candidate (x = percent of that candidate in that formula), each formula's own
 * least-cost rows on its columns, and one row per supply: minTons ≤ Σ_f tons_f × x_{f,i} / 100 ≤ maxTons.
 * Minimise Σ_f tons_f × Σ_i price_i × x_{f,i} / 100, the plan's cost at these prices. Built sparse
 * (a 50-formula plan has 3,000 columns and 1,500 rows, mostly zero across formulas). With a footprint
 * cap (maxCo2e, kg CO2e per tonne on the plan's average) one more row after the supply rows:
 * Σ_f (tons_f / totalTons) × Σ_i co2e_i × 10 × x_{f,i} ≤ maxCo2e, written per tonne of the plan so its
 * dual is the plan cost's change per kg CO2e per tonne more allowed, and its coefficients stay small.
 */
import type { Highs, Model } from "highs";
import { BASIS, SOLVER_OPTIONS } from "./lp.ts";
import { co2eCoefficients } from "./co2e.ts";
import type { LeastCostProblem } from "./model.ts";

export interface PlanLine {
  tons: number;
  problem: LeastCostProblem;
}

export interface SupplyRow {
  name: string;
  minTons: number | null;
  maxTons: number | null;
}

export interface PlanSolution {
  status: "optimal" | "infeasible";
  /** Plan cost at the optimum (unrounded). */
  objective: number;
  /** Per line, the percents of its candidates. */
  x: Float64Array[];
  /** Per supply row: tons used, d(cost)/d(active bound) and the row's basis status. */
  supply: { tons: number; dual: number; status: number }[];
  /** The footprint cap's row (kg CO2e per tonne on the plan's average, its dual, its basis status); null without a cap. */
  co2e: { value: number; dual: number; status: number } | null;
}

/** Where each line's columns start, and the supply rows' coefficients on them. */
export interface PlanLayout {
  offsets: number[];
  width: number;
  /** Per supply row: [column, tons per percent] pairs. */
  supplyEntries: [number, number][][];
  /** The footprint cap's row, after the supply rows: [column, kg CO2e per tonne of the plan per percent] pairs and the cap; null without one. */
  co2e: { entries: [number, number][]; max: number } | null;
}

/** @example planLayout(lines, supply).width // Σ candidates */
export function planLayout(lines: readonly PlanLine[], supply: readonly SupplyRow[], maxCo2e: number | null = null): PlanLayout {
  const offsets: number[] = [];
  let width = 0;
  for (const line of lines) {
    offsets.push(width);
    width += line.problem.candidates.length;
  }
  const supplyEntries = supply.map((s) =>
    lines.flatMap((line, f) => {
      const j = line.problem.candidates.findIndex((c) => c.name === s.name);
      return j === -1 ? [] : [[offsets[f]! + j, line.tons / 100] as [number, number]];
    }),
  );
  const totalTons = lines.reduce((s, l) => s + l.tons, 0);
  const co2e =
    maxCo2e === null
      ? null
      : {
          entries: lines.flatMap((line, f) => [...co2eCoefficients(line.problem.candidates)].flatMap((a, j) => (a === 0 ? [] : [[offsets[f]! + j, (line.tons / totalTons) * a] as [number, number]]))),
          max: maxCo2e,
        };
  return { offsets, width, supplyEntries, co2e };
}

/**
 * The plan's model on a new HiGHS model (the caller disposes it); `elastic` adds nothing: repairs build their own.
 * @example const model = planModel(highs, lines, supply, planLayout(lines, supply)); try { model.run() } finally { model.dispose() }
 */
export function planModel(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], layout: PlanLayout): Model {
  const inf = highs.infinity;
  const finite = (v: number) => (v === Infinity ? inf : v === -Infinity ? -inf : v);
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const rowLower: number[] = [];
  const rowUpper: number[] = [];
  lines.forEach((line, f) => {
    const offset = layout.offsets[f]!;
    for (const row of line.problem.rows) {
      row.coefficients.forEach((a, j) => {
        if (a !== 0) (indices.push(offset + j), values.push(a));
      });
      starts.push(indices.length);
      rowLower.push(finite(row.lower));
      rowUpper.push(finite(row.upper));
    }
  });
  supply.forEach((s, k) => {
    for (const [col, a] of layout.supplyEntries[k]!) (indices.push(col), values.push(a));
    starts.push(indices.length);
    rowLower.push(s.minTons ?? -inf);
    rowUpper.push(s.maxTons ?? inf);
  });
  if (layout.co2e) {
    for (const [col, a] of layout.co2e.entries) (indices.push(col), values.push(a));
    starts.push(indices.length);
    rowLower.push(-inf);
    rowUpper.push(layout.co2e.max);
  }
  const cost: number[] = [];
  const colUpper: number[] = [];
  for (const line of lines) {
    for (const c of line.problem.candidates) {
      cost.push((line.tons * c.price) / 100);
      colUpper.push(c.held ? 0 : inf);
    }
  }
  const model = highs.createModel({
    numCols: layout.width,
    numRows: rowLower.length,
    colCost: Float64Array.from(cost),
    colLower: new Float64Array(layout.width),
    colUpper: Float64Array.from(colUpper),
    rowLower: Float64Array.from(rowLower),
    rowUpper: Float64Array.from(rowUpper),
    matrix: { format: "csr", numRows: rowLower.length, numCols: layout.width, starts: Int32Array.from(starts), indices: Int32Array.from(indices), values: Float64Array.from(values) },
  });
  model.options.set(SOLVER_OPTIONS);
  return model;
}

/** A line's optimal basis alone (its columns' and rows' statuses, as solveLp gives them). */
export interface LineBasis {
  colStatus: Int32Array;
  rowStatus: Int32Array;
}

/**
 * Solve the plan (simplex, no presolve, so supply rows have duals as given). `start`: each line's optimal
 * basis alone. Together, with the supply and cap rows basic, they are a basis of the plan that is dual
 * feasible (each block's reduced costs are its own, scaled by its tons, and the coupling rows' duals 0),
 * so the dual simplex only has to repair the supply rows the lines alone break (bench/plans.ts's
 * 50 × 60 × 30 plan with 10 binding supply rows: 1,478 simplex iterations instead of 3,183).
 * @example solvePlan(highs, lines, supply).supply[0].dual // −12.5: one more ton of that contract saves 12.50
 */
export function solvePlan(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], maxCo2e: number | null = null, start: readonly LineBasis[] | null = null): PlanSolution {
  const layout = planLayout(lines, supply, maxCo2e);
  const model = planModel(highs, lines, supply, layout);
  try {
    if (start !== null) {
      const coupling = supply.length + (layout.co2e ? 1 : 0);
      model.setBasis({
        colStatus: Int32Array.from(start.flatMap((b) => [...b.colStatus])),
        rowStatus: Int32Array.from([...start.flatMap((b) => [...b.rowStatus]), ...new Array<number>(coupling).fill(BASIS.basic)]),
      });
    }
    model.run();
    let status = model.getModelStatus();
    if (status !== highs.constants.modelStatus.optimal && status !== highs.constants.modelStatus.infeasible) {
      // At the edge of feasibility simplex without presolve may end undecided; presolve settles it.
      model.clearSolver();
      model.options.set({ ...SOLVER_OPTIONS, presolve: "on" });
      model.run();
      status = model.getModelStatus();
    }
    if (status === highs.constants.modelStatus.infeasible) return { status: "infeasible", objective: NaN, x: [], supply: [], co2e: null };
    if (status !== highs.constants.modelStatus.optimal) throw new Error(`HiGHS ended a plan with model status ${status}`);
    const { colValue, rowValue, rowDual } = model.getSolution();
    const rowStatus = model.getBasis().rowStatus;
    const limitRows = lines.reduce((n, l) => n + l.problem.rows.length, 0);
    return {
      status: "optimal",
      objective: model.getObjectiveValue(),
      x: lines.map((line, f) => colValue.slice(layout.offsets[f]!, layout.offsets[f]! + line.problem.candidates.length)),
      supply: supply.map((_, k) => ({ tons: rowValue[limitRows + k]!, dual: rowDual[limitRows + k]!, status: rowStatus[limitRows + k]! })),
      co2e: layout.co2e === null ? null : { value: rowValue[limitRows + supply.length]!, dual: rowDual[limitRows + supply.length]!, status: rowStatus[limitRows + supply.length]! },
    };
  } finally {
    model.dispose();
  }
}
