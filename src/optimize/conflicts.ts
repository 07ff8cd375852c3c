/**
 * What to relax when no mix meets the limits: an elastic re-solve in which every nutrient, inclusion
 * and ratio bound may be violated at a penalty of 1/max(|limit|, 1) per unit, while Σ x = 100, x ≥ 0
 * and out-of-stock holds stay hard. The bounds it has to move are the conflicts, each with the value
 * the relaxed mix reaches (docs/decisions.md#least-cost-formulation). A min above a max of the same
 * nutrient, inclusion or ratio is a conflict however little they differ: the relaxation may move such
 * a pair by less than the solver's tolerance, and they conflict whatever the candidates.
 */
import type { Highs } from "highs";
import { solveLp } from "./lp.ts";
import { activity, nutrientLevel, type LeastCostProblem, type Limit } from "./model.ts";

export interface Conflict {
  limit: Limit;
  bound: "min" | "max";
  /** The bound's value (a ratio's own limit for a ratio). */
  value: number;
  /** Achieved by the relaxed mix: the nutrient level, the percent, or the ratio (null: denominator 0). */
  bestAchievable: number | null;
}

/** A violation smaller than this, relative to the limit, is the solver's tolerance, not a conflict. */
const VIOLATED = 1e-7;

/**
 * The conflicts of an infeasible problem, in the order of its rows; [] when even the hard part
 * (Σ x = 100 over candidates that are not held) cannot be met.
 * @example conflictsOf(highs, problem) // [{ limit: { kind: "nutrient", key: "CP", ... }, bound: "min", value: 45, bestAchievable: 48.5 }]
 */
export function conflictsOf(highs: Highs, problem: LeastCostProblem): Conflict[] {
  const { candidates, rows } = problem;
  const n = candidates.length;
  // One elastic column per finite bound of each limit row: +e lifts a row to its min, −e lowers it to its max.
  const elastic: { row: number; bound: "min" | "max"; value: number; penalty: number }[] = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    const limit = row.limit!;
    for (const bound of ["min", "max"] as const) {
      const rhs = bound === "min" ? row.lower : row.upper;
      if (!Number.isFinite(rhs)) continue;
      const value = limit.kind === "ratio" ? limit.limit : rhs;
      elastic.push({ row: r, bound, value, penalty: 1 / Math.max(Math.abs(value), 1) });
    }
  }
  const width = n + elastic.length;
  const solution = solveLp(
    highs,
    {
      cost: [...new Array<number>(n).fill(0), ...elastic.map((e) => e.penalty)],
      colLower: new Float64Array(width),
      colUpper: [...candidates.map((c) => (c.held ? 0 : Infinity)), ...elastic.map(() => Infinity)],
      rows: rows.map((row, r) => {
        const coefficients = new Float64Array(width);
        coefficients.set(row.coefficients);
        elastic.forEach((e, k) => {
          if (e.row === r) coefficients[n + k] = e.bound === "min" ? 1 : -1;
        });
        return { coefficients, lower: row.lower, upper: row.upper };
      }),
    },
    { ranging: false },
  );
  if (solution.status === "infeasible") return [];
  const x = solution.x.subarray(0, n);
  const crossed = crossedBounds(problem);
  const conflicts: Conflict[] = [];
  elastic.forEach((e, k) => {
    if (solution.x[n + k]! <= VIOLATED * Math.max(1, Math.abs(e.value)) && !crossed.has(`${e.row} ${e.bound}`)) return;
    const limit = rows[e.row]!.limit!;
    conflicts.push({ limit, bound: e.bound, value: e.value, bestAchievable: achieved(problem, e.row, limit, x) });
  });
  return conflicts;
}

function achieved(problem: LeastCostProblem, r: number, limit: Limit, x: Float64Array): number | null {
  if (limit.kind !== "ratio") return activity(problem.rows[r]!.coefficients, x);
  const denominator = nutrientLevel(problem.candidates, limit.denominator, x);
  return denominator === 0 ? null : nutrientLevel(problem.candidates, limit.numerator, x) / denominator;
}

/** What a bound limits: the same nutrient, inclusion or ratio in two rows is the same target. */
function targetOf(limit: Limit): string {
  if (limit.kind === "nutrient") return `n ${limit.key}`;
  if (limit.kind === "ingredient") return `i ${limit.name}`;
  if (limit.kind === "ratio") return `r ${limit.numerator}\n${limit.denominator}`;
  return limit.kind;
}

/**
 * The "row bound" pairs of each target whose highest min is above its lowest max (a ratio's value is
 * its own limit; its row's side tells min from max).
 * @example crossedBounds(buildProblem(candidates, { nutrients: [{ key: "CP", min: 14, max: null }, { key: "CP", min: null, max: 13.9999999 }], ingredients: [] })) // Set { "1 min", "2 max" }
 */
function crossedBounds(problem: LeastCostProblem): Set<string> {
  const sides = new Map<string, { min: { row: number; value: number } | null; max: { row: number; value: number } | null }>();
  problem.rows.forEach((row, r) => {
    if (row.limit === null) return;
    const ratio = row.limit.kind === "ratio" ? row.limit.limit : null;
    const side = sides.get(targetOf(row.limit)) ?? { min: null, max: null };
    const min = ratio ?? row.lower;
    const max = ratio ?? row.upper;
    if (Number.isFinite(row.lower) && (side.min === null || min > side.min.value)) side.min = { row: r, value: min };
    if (Number.isFinite(row.upper) && (side.max === null || max < side.max.value)) side.max = { row: r, value: max };
    sides.set(targetOf(row.limit), side);
  });
  const crossed = new Set<string>();
  for (const { min, max } of sides.values()) {
    if (min === null || max === null || min.value <= max.value) continue;
    crossed.add(`${min.row} min`).add(`${max.row} max`);
  }
  return crossed;
}
