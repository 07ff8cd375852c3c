/**
 * A rounded optimum made cheaper by exchanges (rounding.ts, docs/decisions.md#least-cost-formulation):
 * for a formula too large for the window search, whose mix is plain rounding or a re-solve's. Whole grid
 * units move from one candidate of the optimum's mix to a cheaper one, as many at a time as every limit
 * allows, pairs taken by price gap (largest first), pass after pass while any moves. A mix it stops at
 * has no cheaper mix one exchange away, not the cheapest of its window: at the optimum most limits bind,
 * so a cheaper mix usually needs several candidates to move at once.
 *
 * Judged in floating point on the problem's rows, each bound pulled in by far more than float noise;
 * rounding.ts checks the mix exactly before it stands. A ratio, which a saved formula's warnings read on
 * levels rounded to 4 decimals, is kept that far inside its bounds (half a step of each level), or no
 * further in than it starts. Each percent stays within the window of its unrounded value (0.001 %, as the
 * search keeps it), or no further from it than it starts.
 */
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import { movable, type LeastCostProblem } from "./model.ts";
import { WINDOW } from "./window-rounding.ts";

/** Float noise on a row's activity is far below this, relative to its bound. */
const NOISE = 1e-9;
/** Half a step of a level rounded to 4 decimals. */
const SHOWN = 0.00005;
/**
 * Passes over every pair: each is m² × rows multiply-adds (0.1 ms at 60 × 30); the formulas measured
 * stopped within 15 (docs/decisions.md#least-cost-formulation).
 */
const PASSES = 50;

/**
 * `start` (grid units per candidate, keeping every limit) after the exchanges; no dearer.
 * @example exchanged(problem, solution.x, plainRounding(problem, solution.x)) // Int32Array, Σ = 1,000,000
 */
export function exchanged(problem: LeastCostProblem, x: ArrayLike<number>, start: Int32Array): Int32Array {
  const units = Int32Array.from(start);
  const cols = movable(problem, x);
  const rows = problem.rows.filter((row) => row.limit !== null && (Number.isFinite(row.lower) || Number.isFinite(row.upper)));
  const m = cols.length;
  const k = rows.length;
  // a[i × m + c]: row i's change for one grid unit of column c; act: each row's activity; lo, hi: its bounds as judged here.
  const a = new Float64Array(k * m);
  const act = new Float64Array(k);
  const lo = new Float64Array(k);
  const hi = new Float64Array(k);
  rows.forEach((row, i) => {
    let level = 0;
    for (let j = 0; j < units.length; j++) level += row.coefficients[j]! * units[j]!;
    act[i] = level / UNITS_PER_PERCENT;
    cols.forEach((j, c) => (a[i * m + c] = row.coefficients[j]! / UNITS_PER_PERCENT));
    const limit = row.limit!;
    // An inclusion's activity is units / 10^4, exact enough in a double; a fixed level is judged exactly by rounding.ts.
    const noise = (bound: number) => (limit.kind === "ingredient" ? 0 : (row.lower === row.upper ? -1 : 1) * NOISE * Math.max(1, Math.abs(bound)));
    const read = limit.kind === "ratio" && row.lower !== row.upper ? SHOWN * (1 + Math.abs(limit.limit)) : 0;
    lo[i] = Number.isFinite(row.lower) ? Math.min(row.lower + noise(row.lower) + read, read > 0 ? act[i]! : Infinity) : -Infinity;
    hi[i] = Number.isFinite(row.upper) ? Math.max(row.upper - noise(row.upper) - read, read > 0 ? act[i]! : -Infinity) : Infinity;
  });
  // The fewest and most units each column may reach: its window, widened to where it starts.
  const least = cols.map((j) => Math.max(0, Math.min(start[j]!, Math.ceil(x[j]! * UNITS_PER_PERCENT - WINDOW))));
  const most = cols.map((j) => Math.max(start[j]!, Math.floor(x[j]! * UNITS_PER_PERCENT + WINDOW)));
  const price = cols.map((j) => problem.candidates[j]!.price);
  const pairs: [number, number][] = [];
  for (let from = 0; from < m; from++) for (let to = 0; to < m; to++) if (price[to]! < price[from]!) pairs.push([from, to]);
  pairs.sort((p, q) => price[q[0]]! - price[q[1]]! - (price[p[0]]! - price[p[1]]!) || p[0] - q[0] || p[1] - q[1]);
  for (let pass = 0, moved = true; pass < PASSES && moved; pass++) {
    moved = false;
    for (const [from, to] of pairs) {
      let t = Math.min(units[cols[from]!]! - least[from]!, most[to]! - units[cols[to]!]!);
      for (let i = 0; i < k && t >= 1; i++) {
        const d = a[i * m + to]! - a[i * m + from]!;
        if (d > 0) t = Math.min(t, Math.floor((hi[i]! - act[i]!) / d));
        else if (d < 0) t = Math.min(t, Math.floor((act[i]! - lo[i]!) / -d));
      }
      if (t < 1) continue;
      units[cols[from]!]! -= t;
      units[cols[to]!]! += t;
      for (let i = 0; i < k; i++) act[i]! += t * (a[i * m + to]! - a[i * m + from]!);
      moved = true;
    }
  }
  return units;
}
