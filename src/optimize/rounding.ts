/**
 * The optimum as people see and save it (docs/decisions.md#least-cost-formulation): percents on the
 * 0.0001 grid summing to exactly 100 that keep every limit, judged exactly (limits-check.ts).
 *
 * The cheapest such mix within 0.001 % of each unrounded percent, ties to the nearest, the window
 * widening 0.001 % at a time while it holds none (window-rounding.ts, a small integer program). A ratio
 * kept exactly but shown below its limit on the levels rounded to 4 decimals (as a saved formula's
 * warnings read it) has its row pulled past that mix, further each time, and the search runs again.
 * Where the search cannot answer (no mix within 0.1 %, a formula too large for it, or its guard stops
 * it first), the former rounding: plain rounding (each percent to 4 decimals, the sum then made 100 by
 * moving the units whose rounding was closest to going the other way) when it keeps every limit; else the
 * problem is solved again with every bound pulled inward by a margin (reachOf), and that optimum is
 * rounded plainly; while a bound is still broken every margin doubles, past the most plain rounding can
 * move a row, where every limit holds by construction. Past that, the rounding breaking the fewest limits
 * stands (they are then reported as a saved mix's warnings are). For a formula too large to search, the
 * former rounding that keeps every limit is then made cheaper by exchanges between candidates of the mix
 * (grid-exchange.ts): no longer the cheapest of a window, but no cheaper mix one exchange away (on the
 * bench's 60 × 30 formula 0.0034 per tonne above the unrounded optimum where the former rounding was 0.0072).
 */
import type { Highs } from "highs";
import type { GridRow } from "./grid-rows.ts";
import { exchanged } from "./grid-exchange.ts";
import { integerRows, limitsCheck, UNITS_PER_PERCENT, WHOLE_MIX, type Break, type LimitsCheck } from "./limits-check.ts";
import { solveLp } from "./lp.ts";
import { inMix, type LeastCostProblem } from "./model.ts";
import { lpOf } from "./solve.ts";
import { cheapestRounding, tooLarge } from "./window-rounding.ts";

/** Searches again after a ratio kept exactly but not on its shown levels: each pulls that row further in. */
const SHOWN_PULLS = 4;
/** Re-solves with the limits pulled in: each further one doubles every margin; the fourth reaches the most rounding can move a row. */
const MARGIN_TRIES = 5;

/**
 * Grid units (1e-4 %) per candidate of the rounded optimum: integers, Σ = 1,000,000. Without
 * `cheapest`, no search: plain rounding, else the LP pulled in (chance-rounding.ts, past its first try).
 * @example Array.from(roundedMix(highs, problem, solution.x), (u) => u / 10_000) // [61.2345, 38.7655]
 */
export function roundedMix(highs: Highs, problem: LeastCostProblem, x: ArrayLike<number>, options: { cheapest: boolean } = { cheapest: true }): Int32Array {
  const check = limitsCheck(problem);
  const large = options.cheapest && tooLarge(problem, x);
  const rows = !options.cheapest || large ? [] : integerRows(problem);
  const pulls = rows.map(() => 0n);
  for (let attempt = 0; attempt <= SHOWN_PULLS && rows.length > 0; attempt++) {
    const cheapest = cheapestRounding(highs, problem, rows, x);
    if (cheapest === null) break;
    const broken = check.breaks(cheapest);
    if (broken.length === 0) return cheapest;
    // The program keeps the exact rows; a ratio is also judged on its levels rounded to 4 decimals, which it
    // cannot model: that row is pulled past the mix found (further each time) and searched again.
    for (const { row, bound } of broken) pullPast(rows[row]!, bound, cheapest, (pulls[row] = pulls[row] === 0n ? 1n : pulls[row]! * 4n));
  }
  const former = formerRounding(highs, problem, x, check);
  if (!large || former.broken.length > 0) return former.units;
  // Too large to search: the former rounding made cheaper by exchanges (grid-exchange.ts), checked exactly.
  const cheaper = exchanged(problem, x, former.units);
  return check.breaks(cheaper).length === 0 ? cheaper : former.units;
}

/** Plain rounding when it keeps every limit, else the LP pulled in and rounded plainly; what it breaks. */
function formerRounding(highs: Highs, problem: LeastCostProblem, x: ArrayLike<number>, check: LimitsCheck): { units: Int32Array; broken: Break[] } {
  const plain = plainRounding(problem, x);
  // When no mix keeps every limit (a fixed level written with more decimals than the grid reaches), the one breaking fewest stands.
  let fewest = { units: plain, broken: check.breaks(plain) };
  if (fewest.broken.length === 0) return fewest;
  const margins = problem.rows.map((row) => {
    const reach = reachOf(row, problem, x);
    return { min: Number.isFinite(row.lower) ? reach : 0, max: Number.isFinite(row.upper) ? reach : 0 };
  });
  for (let attempt = 0; attempt < MARGIN_TRIES; attempt++) {
    const pulled = solveLp(highs, lpOf(pulledIn(problem, margins)), { ranging: false });
    if (pulled.status === "infeasible") break;
    const units = plainRounding(problem, pulled.x);
    const broken = check.breaks(units);
    if (broken.length < fewest.broken.length) fewest = { units, broken };
    if (broken.length === 0) break;
    // Every margin doubles, not only the broken ones: the pulled optimum moves to another vertex, where other rows bind.
    for (const m of margins) [m.min, m.max] = [m.min * 2, m.max * 2];
  }
  return fewest;
}

/**
 * The first margin of a row: an eighth of the most plain rounding can move it (every percent by at most
 * one grid unit, so Σ |a_j| × 0.0001 over the candidates; for a ratio, which a warning reads on levels
 * rounded to 4 decimals, half a rounding step of each level more). Rounding errors mostly cancel, so the
 * full reach would cost more than needed (an eighth first, then doubling, is what the demo measured best).
 */
function reachOf(row: LeastCostProblem["rows"][number], problem: LeastCostProblem, x: ArrayLike<number>): number {
  if (row.limit === null) return 0;
  let reach = 0;
  problem.candidates.forEach((c, j) => {
    // A percent already on the grid (a fixed inclusion: a premix, an enzyme at its dose) is not moved by rounding.
    const t = x[j]! * UNITS_PER_PERCENT;
    if (!c.held && Math.abs(t - Math.round(t)) > 1e-6) reach += Math.abs(row.coefficients[j]!) / UNITS_PER_PERCENT;
  });
  if (row.limit.kind === "ratio") reach += 0.00005 * (1 + Math.abs(row.limit.limit));
  return (reach * 1.01) / 8;
}

/** The row's bound moved past the mix's activity (by `by` integer units), so the search must find another. */
function pullPast(row: GridRow, bound: "min" | "max", units: Int32Array, by: bigint): void {
  const activity = row.coefficients.reduce((s, a, j) => s + a * BigInt(units[j]!), 0n);
  if (bound === "min") row.lower = activity + by;
  else row.upper = activity - by;
}

/** The problem with each bound pulled inward by its margin; a two-sided row keeps at least its midpoint. */
function pulledIn(problem: LeastCostProblem, margins: { min: number; max: number }[]): LeastCostProblem {
  return {
    ...problem,
    rows: problem.rows.map((row, r) => {
      const m = margins[r]!;
      if (m.min === 0 && m.max === 0) return row;
      const mid = Number.isFinite(row.lower) && Number.isFinite(row.upper) ? (row.lower + row.upper) / 2 : null;
      const lower = row.lower + m.min;
      const upper = row.upper - m.max;
      return { ...row, lower: mid === null ? lower : Math.min(lower, mid), upper: mid === null ? upper : Math.max(upper, mid) };
    }),
  };
}

/** Each in-mix percent to 4 decimals; the sum made exactly 100 by the units closest to rounding the other way. */
export function plainRounding(problem: LeastCostProblem, x: ArrayLike<number>): Int32Array {
  const n = problem.candidates.length;
  const target = Float64Array.from({ length: n }, (_, j) => (inMix(x, j) ? x[j]! * UNITS_PER_PERCENT : 0));
  const units = Int32Array.from(target, Math.round);
  let missing = WHOLE_MIX - units.reduce((s, u) => s + u, 0);
  const residual = (j: number) => target[j]! - units[j]!;
  const order = [...Array(n).keys()].filter((j) => target[j]! > 0);
  // Up: those rounded down the most first; down: those rounded up the most first (never below 0).
  order.sort((a, b) => (missing > 0 ? residual(b) - residual(a) : residual(a) - residual(b)) || a - b);
  for (let k = 0; missing !== 0 && order.length > 0; k = (k + 1) % order.length) {
    const j = order[k]!;
    if (missing < 0 && units[j] === 0) continue;
    units[j] = units[j]! + Math.sign(missing);
    missing -= Math.sign(missing);
  }
  return units;
}
