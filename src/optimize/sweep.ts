/**
 * A price sweep (docs/decisions.md#price-sweeps): the optimum's percent of one ingredient and its cost
 * per ton as that ingredient's price moves from `from` to `to`, and every price in between at which
 * the optimal percent changes.
 *
 * The optimal cost is a concave, piecewise linear function of the price, whose slope is the percent;
 * so the percent changes exactly at the ends of the price ranges over which an optimal composition
 * stays optimal. The sweep walks those ranges upward: solve at a price, take the composition's exact
 * upper price margin (price-margins.ts, the set of all its dual certificates, so a degenerate optimum's
 * too-narrow basis range cannot stop it early), solve just above, and check that the new composition's
 * lower margin reaches back to the end (else a narrower range lies between: look closer). A change of
 * percent there is a breakpoint. The evenly spaced points are then read off the ranges, not solved.
 */
import type { Highs } from "highs";
import { round } from "../domain/formula-math.ts";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import { solveLp } from "./lp.ts";
import type { LeastCostProblem } from "./model.ts";
import { priceMargins } from "./price-margins.ts";
import { costPerTonOf } from "./result.ts";
import { plainRounding } from "./rounding.ts";
import { lpOf } from "./solve.ts";

export interface SweepInput {
  problem: LeastCostProblem;
  /** Index of the swept candidate in problem.candidates. */
  swept: number;
  from: number;
  to: number;
  points: number;
}

export interface SweepOutput {
  status: "optimal" | "infeasible";
  points: { price: number; percent: number | null; costPerTon: number | null }[];
  breakpoints: { price: number; percentBelow: number; percentAbove: number }[];
}

/** One optimal composition and the swept prices [low, high] over which it stays optimal. */
interface Piece {
  low: number;
  high: number;
  /** Unrounded percent of the swept candidate: what decides whether two pieces differ. */
  x: number;
  /**
   * The mix in grid units (1e-4 %), each percent rounded to 4 decimals summing to 100: a sweep shows
   * how the optimum moves, it saves nothing, so the limit-keeping rounding of a saved optimum (whose
   * integer program would cost more than the whole sweep) is not spent on it.
   */
  units: Int32Array;
}

/** Two percents closer than this are the same composition of the swept candidate (solver tolerance). */
const SAME_PERCENT = 1e-7;
const tolerance = (price: number) => 1e-7 * Math.max(1, Math.abs(price));

/**
 * @example sweep(highs, { problem, swept: 0, from: 150, to: 300, points: 51 }).breakpoints // [{ price: 241.17, percentBelow: 61.2, percentAbove: 48.9 }]
 */
export function sweep(highs: Highs, input: SweepInput): SweepOutput {
  const { problem, swept, from, to } = input;
  const prices = Array.from({ length: input.points }, (_, k) => round(from + ((to - from) * k) / (input.points - 1), 2));
  const pieces: Piece[] = [];
  let at = from;
  let first = pieceAt(highs, problem, swept, from);
  if (first === null) return { status: "infeasible", points: prices.map((price) => ({ price, percent: null, costPerTon: null })), breakpoints: [] };
  // The composition optimal at `from` itself may be the one of the prices below it: start just above.
  if (first.high <= from + tolerance(from)) first = pieceAbove(highs, problem, swept, from);
  pieces.push(first);
  at = first.high;
  while (at < to) {
    const next = pieceAbove(highs, problem, swept, at);
    const last = pieces[pieces.length - 1]!;
    if (Math.abs(next.x - last.x) <= SAME_PERCENT) last.high = next.high;
    else pieces.push({ ...next, low: at });
    at = next.high;
  }
  const breakpoints = pieces.slice(1).flatMap((p, k) => (p.low > from && p.low < to ? [{ price: round(p.low, 2), percentBelow: percentOf(pieces[k]!, swept), percentAbove: percentOf(p, swept) }] : []));
  const points = prices.map((price) => {
    // A price at a breakpoint belongs to the piece above it.
    const piece = pieces.find((p) => price < p.high || p === pieces[pieces.length - 1])!;
    const rows = problem.candidates.map((c, j) => ({ percent: piece.units[j]! / UNITS_PER_PERCENT, price: j === swept ? price : c.price }));
    return { price, percent: percentOf(piece, swept), costPerTon: costPerTonOf(rows) };
  });
  return { status: "optimal", points, breakpoints };
}

const percentOf = (p: Piece, j: number) => p.units[j]! / UNITS_PER_PERCENT;

/** The optimum with the swept price at `price` and its exact range; null when no mix meets the limits. */
function pieceAt(highs: Highs, problem: LeastCostProblem, j: number, price: number): Piece | null {
  const candidates = problem.candidates.map((c, i) => (i === j ? { ...c, price } : c));
  const at = { ...problem, candidates };
  const solution = solveLp(highs, lpOf(at), { ranging: false });
  if (solution.status === "infeasible") return null;
  const units = plainRounding(at, solution.x);
  if (candidates[j]!.held) return { low: -Infinity, high: Infinity, x: 0, units };
  const margins = priceMargins(highs, at, solution);
  try {
    return { low: price - margins.down(j), high: price + margins.up(j), x: solution.x[j]!, units };
  } finally {
    margins.dispose();
  }
}

/** The composition optimal just above `price`, with a range reaching down to it. */
function pieceAbove(highs: Highs, problem: LeastCostProblem, j: number, price: number): Piece {
  let step = 1e-5 * Math.max(1, Math.abs(price));
  let piece = pieceAt(highs, problem, j, price + step)!;
  // A range that does not reach back to `price` leaves a narrower one between: look closer (a range
  // narrower than the solver's tolerance is taken as reaching back).
  for (let closer = 0; piece.low > price + tolerance(price) && closer < 40; closer++) {
    step = (piece.low - price) / 2;
    piece = pieceAt(highs, problem, j, price + step)!;
  }
  return { ...piece, low: Math.min(piece.low, price) };
}
