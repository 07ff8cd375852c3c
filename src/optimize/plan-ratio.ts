/**
 * The best ratio a plan's line reaches with one bound of that ratio dropped (every other limit, supply
 * row and cap kept): a plan's single-limit repair of a ratio (plan-repairs.ts), as repairs.ts finds it
 * for one formula. The ratio Σ num·x_f / Σ den·x_f is linear-fractional; with t = 100 / Σ den·x_f and
 * y = t·x over every line's columns (Charnes–Cooper), maximise Σ num·y_f / 100 subject to
 * Σ den·y_f / 100 = 1 and each other row made homogeneous (lower·t ≤ a·y ≤ upper·t): one LP, sparse
 * like the plan's own.
 */
import type { Highs } from "highs";
import { SOLVER_OPTIONS } from "./lp.ts";
import type { Limit } from "./model.ts";
import type { PlanLayout, PlanLine, SupplyRow } from "./plan-lp.ts";

/** t = 100 / Σ denominator·x: capped, so a denominator that can fall to 0 gives a large finite ratio, never an unbounded program. */
const LARGEST_T = 1e12;

/**
 * @example bestPlanRatio(highs, lines, supply, layout, 0, 5, "min") // 1.62: the highest Ca:avP line 0 can reach
 */
export function bestPlanRatio(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], layout: PlanLayout, f: number, r: number, bound: "min" | "max"): number | null {
  const ratio = lines[f]!.problem.rows[r]!.limit as Extract<Limit, { kind: "ratio" }>;
  const t = layout.width;
  const inf = highs.infinity;
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const rowLower: number[] = [];
  const rowUpper: number[] = [];
  /** One homogeneous row: entries·y − level·t against 0 on the side(s) given. */
  const push = (entries: ReadonlyArray<readonly [number, number]>, level: number, lower: number, upper: number) => {
    for (const [col, a] of entries) if (a !== 0) (indices.push(col), values.push(a));
    if (level !== 0) (indices.push(t), values.push(-level));
    starts.push(indices.length);
    rowLower.push(lower);
    rowUpper.push(upper);
  };
  /** Both bounds of a row, each its own homogeneous row (one when they are equal). */
  const bounded = (entries: ReadonlyArray<readonly [number, number]>, lower: number, upper: number) => {
    if (lower === upper) return push(entries, lower, 0, 0);
    if (Number.isFinite(lower)) push(entries, lower, 0, inf);
    if (Number.isFinite(upper)) push(entries, upper, -inf, 0);
  };
  const level = (line: PlanLine, key: string) => line.problem.candidates.map((c) => (Object.hasOwn(c.nutrients, key) ? c.nutrients[key]! : 0) / 100);
  const on = (g: number, coefficients: ArrayLike<number>) => Array.from(coefficients, (a, j) => [layout.offsets[g]! + j, a] as const);
  push(on(f, level(lines[f]!, ratio.denominator)), 0, 1, 1);
  lines.forEach((line, g) => {
    line.problem.rows.forEach((row, i) => {
      const lower = g === f && i === r && bound === "min" ? -Infinity : row.lower;
      const upper = g === f && i === r && bound === "max" ? Infinity : row.upper;
      bounded(on(g, row.coefficients), lower, upper);
    });
  });
  supply.forEach((s, k) => bounded(layout.supplyEntries[k]!, s.minTons ?? -Infinity, s.maxTons ?? Infinity));
  if (layout.co2e) bounded(layout.co2e.entries, -Infinity, layout.co2e.max);

  const sign = bound === "min" ? -1 : 1;
  const cost = new Float64Array(t + 1);
  level(lines[f]!, ratio.numerator).forEach((a, j) => (cost[layout.offsets[f]! + j] = sign * a));
  const colUpper = new Float64Array(t + 1);
  lines.forEach((line, g) => line.problem.candidates.forEach((c, j) => (colUpper[layout.offsets[g]! + j] = c.held ? 0 : inf)));
  colUpper[t] = LARGEST_T;
  const model = highs.createModel({
    numCols: t + 1,
    numRows: rowLower.length,
    colCost: cost,
    colLower: new Float64Array(t + 1),
    colUpper,
    rowLower: Float64Array.from(rowLower, (v) => (v === -Infinity ? -inf : v)),
    rowUpper: Float64Array.from(rowUpper, (v) => (v === Infinity ? inf : v)),
    matrix: { format: "csr", numRows: rowLower.length, numCols: t + 1, starts: Int32Array.from(starts), indices: Int32Array.from(indices), values: Float64Array.from(values) },
  });
  try {
    model.options.set(SOLVER_OPTIONS);
    model.run();
    if (model.getModelStatus() !== highs.constants.modelStatus.optimal) return null;
    return sign * model.getObjectiveValue();
  } finally {
    model.dispose();
  }
}
