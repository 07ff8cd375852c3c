/**
 * The optimum as people see and save it (docs/decisions.md#least-cost-formulation): percents on the
 * 0.0001 grid summing to exactly 100 that keep every limit, judged exactly (limits-check.ts).
 *
 * Plain rounding (each percent to 4 decimals, the sum then made 100 by moving the units whose rounding
 * was closest to going the other way) is kept when it keeps every limit. When it breaks one (it mostly
 * does: an optimum sits on its binding limits, and rounding goes either way), the problem is solved
 * again with every bound pulled inward by a margin (reachOf), and that optimum is rounded plainly;
 * while a bound is still broken every margin doubles, past the most plain rounding can move a row,
 * where every limit holds by construction. The cost is a little above the optimum's (0.0005 to 0.16 per ton on the demo).
 * HiGHS's own MIP solver would find the cheapest grid mix, but its WebAssembly build spends about
 * 100 ms setting up each run, more than a whole optimization may take.
 * Where a bound cannot be pulled in (a fixed level: min = max), a small integer program on the grid
 * (grid-search.ts) looks for the cheapest mix within 0.001 % of each unrounded percent, then 0.01 %;
 * past that the rounding that breaks the fewest limits stands (they are then reported as a saved mix's warnings are).
 */
import type { Highs } from "highs";
import { decimalOf, weightedSum } from "./exact.ts";
import { gridSearch } from "./grid-search.ts";
import { limitsCheck, UNITS_PER_PERCENT, WHOLE_MIX, type Break, type LimitsCheck } from "./limits-check.ts";
import { solveLp } from "./lp.ts";
import { inMix, type LeastCostProblem } from "./model.ts";
import { lpOf } from "./solve.ts";

/** The grid search's window: half-width in grid units (0.001 %), then the widest it may take (0.01 %). */
const WINDOWS = [10, 100];
/** Solves of one window: after a mix the exact check refuses, its broken rows are tightened and it is searched again. */
const TIGHTENINGS = 2;
/** Re-solves with the limits pulled in: each further one doubles every margin; the fourth reaches the most rounding can move a row. */
const MARGIN_TRIES = 5;

/**
 * Grid units (1e-4 %) per candidate of the rounded optimum: integers, Σ = 1,000,000.
 * @example Array.from(roundedMix(highs, problem, solution.x), (u) => u / 10_000) // [61.2345, 38.7655]
 */
export function roundedMix(highs: Highs, problem: LeastCostProblem, x: ArrayLike<number>): Int32Array {
  const check = limitsCheck(problem);
  const plain = plainRounding(problem, x);
  // When no mix keeps every limit (a fixed level written with more decimals than the grid reaches), the one breaking fewest stands.
  let fewest = { units: plain, broken: check.breaks(plain) };
  if (fewest.broken.length === 0) return plain;
  const margins = problem.rows.map((row) => {
    const reach = reachOf(row, problem, x);
    return { min: Number.isFinite(row.lower) ? reach : 0, max: Number.isFinite(row.upper) ? reach : 0 };
  });
  for (let attempt = 0; attempt < MARGIN_TRIES; attempt++) {
    const pulled = solveLp(highs, lpOf(pulledIn(problem, margins)), { ranging: false });
    if (pulled.status === "infeasible") break;
    const units = plainRounding(problem, pulled.x);
    const broken = check.breaks(units);
    if (broken.length === 0) return units;
    if (broken.length < fewest.broken.length) fewest = { units, broken };
    // Every margin doubles, not only the broken ones: the pulled optimum moves to another vertex, where other rows bind.
    for (const m of margins) [m.min, m.max] = [m.min * 2, m.max * 2];
  }
  for (const window of WINDOWS) {
    const found = withinWindow(highs, problem, x, check, window);
    if (found) return found;
  }
  return fewest.units;
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

/** The cheapest grid mix within `window` units of x that keeps every limit, ties toward x; null when none does. */
function withinWindow(highs: Highs, problem: LeastCostProblem, x: ArrayLike<number>, check: LimitsCheck, window: number): Int32Array | null {
  const { candidates, rows } = problem;
  const cols = candidates.flatMap((_, j) => (inMix(x, j) ? [j] : []));
  const target = cols.map((j) => x[j]! * UNITS_PER_PERCENT);
  const lower = target.map((t) => Math.max(0, Math.ceil(t - window)));
  const upper = target.map((t) => Math.floor(t + window));
  // The program's variables are the steps above each window's lower end (0..2 × window): small numbers, a well-scaled program.
  const prices = candidates.map((c) => decimalOf(c.price));
  const unitsOf = (steps: number[]) => {
    const units = new Int32Array(candidates.length);
    cols.forEach((j, k) => (units[j] = lower[k]! + steps[k]!));
    return units;
  };
  // Inward shifts of row bounds (in grid units of the row), grown for bounds a found mix broke.
  const shift = rows.map(() => ({ min: 0, max: 0 }));
  for (let attempt = 0; attempt <= TIGHTENINGS; attempt++) {
    const broke: Break[] = [];
    const found = gridSearch(highs, {
      lp: {
        cost: cols.map((j) => candidates[j]!.price / 100 / UNITS_PER_PERCENT),
        colLower: cols.map(() => 0),
        colUpper: upper.map((u, k) => u - lower[k]!),
        rows: rows.map((row, r) => {
          const coefficients = cols.map((j) => row.coefficients[j]!);
          const base = coefficients.reduce((s, a, k) => s + a * lower[k]!, 0);
          return { coefficients, lower: row.lower * UNITS_PER_PERCENT - base + shift[r]!.min, upper: row.upper * UNITS_PER_PERCENT - base - shift[r]!.max };
        }),
      },
      accept(steps) {
        const breaks = check.breaks(unitsOf(steps));
        broke.push(...breaks);
        return breaks.length === 0;
      },
      cost: (steps) => weightedSum(prices, unitsOf(steps), 6),
      tieBreak: (a, b) => distance(a) - distance(b) || compareSteps(a, b),
    });
    if (found) return unitsOf(found);
    if (broke.length === 0) return null;
    for (const b of broke) tighten(shift[b.row]!, b, rows[b.row]!);
  }
  function distance(steps: number[]) {
    return steps.reduce((s, v, k) => s + Math.abs(lower[k]! + v - target[k]!), 0);
  }
  return null;
}

/** The last resort of a tie: the first differing step, smaller first (any fixed order will do). */
function compareSteps(a: number[], b: number[]): number {
  const k = a.findIndex((v, i) => v !== b[i]);
  return k === -1 ? 0 : a[k]! - b[k]!;
}

/** A broken exact bound moves in by a hair (growing); a ratio read on rounded levels, by half a rounding step of each level. */
function tighten(shift: { min: number; max: number }, b: Break, row: LeastCostProblem["rows"][number]): void {
  const bound = b.bound === "min" ? row.lower : row.upper;
  const hair = 1e-6 * Math.max(1, Math.abs(bound * UNITS_PER_PERCENT));
  const limit = row.limit?.kind === "ratio" ? row.limit.limit : 0;
  const step = b.by === "shown" ? 0.00005 * (1 + Math.abs(limit)) * UNITS_PER_PERCENT : hair;
  shift[b.bound] = Math.max(step, shift[b.bound] * 4);
}
