/**
 * What to relax when no mix meets the limits (docs/decisions.md#least-cost-formulation): every single
 * limit that, moved alone with every other limit kept, makes the formula feasible, with the value it
 * must be moved to. For a nutrient or inclusion bound that value is the best its row reaches with that
 * bound dropped (one LP); for a ratio bound it is the best ratio reachable, a linear-fractional program
 * made linear by the Charnes–Cooper substitution y = t·x (t = 100 / Σ denominator·x). Ordered by the
 * relative move, then kind and name; when no single limit suffices, the elastic set (conflicts.ts).
 */
import type { Highs } from "highs";
import { conflictsOf, type Conflict } from "./conflicts.ts";
import { roundInward } from "./inward.ts";
import { solveLp } from "./lp.ts";
import type { LeastCostProblem, Limit, Row } from "./model.ts";

export interface Repair extends Conflict {
  /** true: this limit moved alone to bestAchievable makes the formula feasible; false: part of the elastic set. */
  alone: boolean;
}

/**
 * The repairs of an infeasible problem: single-limit ones (alone) first choice, else the elastic set.
 * @example repairsOf(highs, problem) // [{ limit: { kind: "nutrient", key: "CP", ... }, bound: "min", value: 45, bestAchievable: 24.3, alone: true }, ...]
 */
export function repairsOf(highs: Highs, problem: LeastCostProblem): Repair[] {
  const single: Repair[] = [];
  problem.rows.forEach((row, r) => {
    if (row.limit === null) return;
    for (const bound of ["min", "max"] as const) {
      if (!Number.isFinite(bound === "min" ? row.lower : row.upper)) continue;
      const best = row.limit.kind === "ratio" ? bestRatio(highs, problem, r, bound) : bestActivity(highs, problem, r, bound);
      if (best === null) continue;
      const value = row.limit.kind === "ratio" ? row.limit.limit : bound === "min" ? row.lower : row.upper;
      single.push({ limit: row.limit, bound, value, bestAchievable: roundInward(best, 4, bound === "min" ? "down" : "up"), alone: true });
    }
  });
  if (single.length > 0) return single.sort(byMove);
  return conflictsOf(highs, problem).map((c) => ({ ...c, alone: false }));
}

const KIND_ORDER = { nutrient: 0, ingredient: 1, ratio: 2, co2e: 3 } as const;
const nameOf = (l: Limit) => (l.kind === "nutrient" ? l.key : l.kind === "ingredient" ? l.name : l.kind === "ratio" ? `${l.numerator}/${l.denominator}` : "co2e");
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const move = (r: Repair) => Math.abs(r.bestAchievable! - r.value) / Math.max(Math.abs(r.value), 1);

function byMove(a: Repair, b: Repair): number {
  return move(a) - move(b) || KIND_ORDER[a.limit.kind] - KIND_ORDER[b.limit.kind] || byBytes(nameOf(a.limit), nameOf(b.limit)) || (a.bound === b.bound ? 0 : a.bound === "min" ? -1 : 1);
}

/** The held candidates fixed at 0 and every other column ≥ 0, as in the formula's own problem. */
const columns = (problem: LeastCostProblem) => ({
  colLower: new Float64Array(problem.candidates.length),
  colUpper: problem.candidates.map((c) => (c.held ? 0 : Infinity)),
});

/** Row r with one bound dropped. */
const without = (row: Row, bound: "min" | "max"): Row => (bound === "min" ? { ...row, lower: -Infinity } : { ...row, upper: Infinity });

/**
 * The most a nutrient or inclusion row reaches (for its min; the least, for its max) with that bound
 * dropped and every other limit kept; null when the others alone admit no mix.
 */
function bestActivity(highs: Highs, problem: LeastCostProblem, r: number, bound: "min" | "max"): number | null {
  const rows = problem.rows.map((row, i) => (i === r ? without(row, bound) : row));
  const sign = bound === "min" ? -1 : 1;
  const solution = solveLp(highs, { cost: Array.from(problem.rows[r]!.coefficients, (a) => sign * a), ...columns(problem), rows }, { ranging: false });
  return solution.status === "optimal" ? sign * solution.objective : null;
}

/**
 * The highest ratio reachable (for its min; the lowest, for its max) with this bound of the ratio
 * dropped and every other limit kept. With y = t·x and Σ denominator·y / 100 = 1: maximise
 * Σ numerator·y / 100 subject to Σ y = 100 t and each other row's lower·t ≤ a·y ≤ upper·t. Null when
 * the others admit no mix whose denominator is above 0.
 */
/** t = 100 / Σ denominator·x: capped, so a denominator that can fall to 0 gives a large finite ratio, never an unbounded program. */
const LARGEST_T = 1e12;

function bestRatio(highs: Highs, problem: LeastCostProblem, r: number, bound: "min" | "max"): number | null {
  const ratio = problem.rows[r]!.limit as Extract<Limit, { kind: "ratio" }>;
  const { candidates } = problem;
  const n = candidates.length;
  const level = (key: string) => candidates.map((c) => (Object.hasOwn(c.nutrients, key) ? c.nutrients[key]! : 0) / 100);
  const homogeneous = (coefficients: ArrayLike<number>, t: number) => Float64Array.from({ length: n + 1 }, (_, j) => (j < n ? coefficients[j]! : t));
  const rows: { coefficients: Float64Array; lower: number; upper: number }[] = [{ coefficients: homogeneous(level(ratio.denominator), 0), lower: 1, upper: 1 }];
  problem.rows.forEach((row, i) => {
    const kept = i === r ? without(row, bound) : row;
    if (kept.lower === kept.upper) rows.push({ coefficients: homogeneous(kept.coefficients, -kept.lower), lower: 0, upper: 0 });
    else {
      if (Number.isFinite(kept.lower)) rows.push({ coefficients: homogeneous(kept.coefficients, -kept.lower), lower: 0, upper: Infinity });
      if (Number.isFinite(kept.upper)) rows.push({ coefficients: homogeneous(kept.coefficients, -kept.upper), lower: -Infinity, upper: 0 });
    }
  });
  const sign = bound === "min" ? -1 : 1;
  const { colLower, colUpper } = columns(problem);
  const solution = solveLp(
    highs,
    { cost: [...level(ratio.numerator).map((a) => sign * a), 0], colLower: [...colLower, 0], colUpper: [...colUpper, LARGEST_T], rows },
    { ranging: false },
  );
  return solution.status === "optimal" ? sign * solution.objective : null;
}
