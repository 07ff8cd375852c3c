/**
 * The cheapest rounding of an optimum within a window (docs/decisions.md#least-cost-formulation): whole
 * grid units (0.0001 %) within a window of each unrounded percent, summing to 100 %, keeping every
 * limit exactly; the cheapest, then the nearest to the unrounded percents. A small integer program:
 * only the in-mix candidates are columns, each its steps above the window's lower end (0..2 × window),
 * so every number in it is small and exact in a double; a limit the window cannot break, whatever it
 * moves, is left out (at an optimum most limits that matter bind and the rest are far). The costs and
 * rows are exact integers. Solved by the batch sheets' branch and bound (grid-branch.ts), which proves
 * its answer and settles ties in one search; by HiGHS (grid-mip.ts) when that gives up.
 */
import type { Highs } from "highs";
import { decimalOf } from "./exact.ts";
import { gcd } from "./decimal-ops.ts";
import { branchGrid } from "./grid-branch.ts";
import { gridMip, type MipGuard } from "./grid-mip.ts";
import type { GridRow } from "./grid-rows.ts";
import { UNITS_PER_PERCENT, WHOLE_MIX } from "./limits-check.ts";
import { movable, type LeastCostProblem } from "./model.ts";

/**
 * HiGHS's cap, past which the best mix found stands (or none): nodes keep the answer the same on
 * every machine, the time limit is only a backstop. The demo's formulas took at most 30 nodes there.
 */
const GUARD: MipGuard = { mip_max_nodes: 500, time_limit: 2 };
/**
 * Past this many nonzeros in the limit rows kept, no search (rounding.ts rounds such a formula the former
 * way, then makes it cheaper by exchanges): on the bench's 60 × 30 formula (462 nonzeros) grid-branch.ts
 * stops at its work limit (9,215 nodes in 1.6 s, best first, without one whole point: 21 limits bind on
 * the 22 candidates of the mix, and the bound barely rises from node to node) and HiGHS's root alone took 0.6 s
 * (10–15 s in all; unguarded, 5 minutes without proving its best), against a few to tens of ms for the demo's (33–74).
 */
const MOST_NONZEROS = 150;
/**
 * Prices are compared exactly to this many decimals (a price per ton with more is a float's noise, as
 * 71.50999999999999 for 71.51); the costs then stay integers well inside a double's exact range.
 */
const PRICE_DECIMALS = 6;
/** The nearness is measured in thousandths of a grid unit (integers for the program). */
const NEAR = 1000;
/** The window's half-width in grid units (0.001 %) and the most multiples of it searched (0.1 %). */
export const WINDOW = 10;
const MOST_WINDOWS = 100;

/**
 * Whether the first window's program would pass MOST_NONZEROS, judged on the problem's own rows in
 * floating point (the exact rows of a large formula take milliseconds to build: 6 ms at 60 × 30, 50
 * times over in a plan); a row counts when its slack at the optimum is within the most the window can move it.
 */
export function tooLarge(problem: LeastCostProblem, x: ArrayLike<number>): boolean {
  const cols = movable(problem, x);
  let nonzeros = 0;
  for (const row of problem.rows.slice(1)) {
    if (row.limit === null) continue;
    let level = 0;
    let reach = 0;
    for (const j of cols) {
      level += row.coefficients[j]! * x[j]!;
      reach += (Math.abs(row.coefficients[j]!) * WINDOW) / UNITS_PER_PERCENT;
    }
    if (Math.min(level - row.lower, row.upper - level) <= reach * 1.01) nonzeros += cols.filter((j) => row.coefficients[j] !== 0).length;
  }
  return nonzeros > MOST_NONZEROS;
}

/**
 * What a search found: grid units per candidate, or null; `proven` false when the guard (or the size)
 * stopped it; `cheapest` whether the units are the window's cheapest (a feasibility test's may not be).
 */
interface Found {
  units: Int32Array | null;
  proven: boolean;
  cheapest: boolean;
}

/**
 * The cheapest rounding in the narrowest window that has one (0.001 %, widening 0.001 % at a time, up to
 * 0.1 %), or null when there is none that far or the search was stopped before proving its window
 * (the caller then rounds another way). Windows nest, so the narrowest with a mix is found by doubling
 * and halving on feasibility alone, without costing the windows passed over.
 * @param rows every limit as exact integer rows over grid units (limits-check.ts's integerRows)
 * @example cheapestRounding(highs, problem, integerRows(problem), solution.x) // Int32Array [612345, 387655]
 */
export function cheapestRounding(highs: Highs, problem: LeastCostProblem, rows: readonly GridRow[], x: ArrayLike<number>): Int32Array | null {
  const search = (windows: number, cheapest: boolean) => inWindow(highs, problem, rows, x, windows * WINDOW, cheapest);
  const first = search(1, true);
  if (first.units !== null || !first.proven) return first.units;
  let without = 1;
  let within: { k: number; found: Found } | null = null;
  for (let k = 2; within === null; k = Math.min(2 * k, MOST_WINDOWS)) {
    const found = search(k, false);
    if (found.units !== null) within = { k, found };
    else if (!found.proven || k === MOST_WINDOWS) return null;
    else without = k;
  }
  while (within.k - without > 1) {
    const mid: number = (within.k + without) >> 1;
    const found = search(mid, false);
    if (found.units !== null) within = { k: mid, found };
    else if (found.proven) without = mid;
    else return null;
  }
  return within.found.cheapest ? within.found.units : search(within.k, true).units;
}

/** Within `window` units of each unrounded percent: the cheapest mix (then the nearest), or when not `cheapest` any mix. */
function inWindow(highs: Highs, problem: LeastCostProblem, rows: readonly GridRow[], x: ArrayLike<number>, window: number, cheapest: boolean): Found {
  const cols = movable(problem, x);
  const target = cols.map((j) => x[j]! * UNITS_PER_PERCENT);
  const lower = target.map((t) => BigInt(Math.max(0, Math.ceil(t - window))));
  const most = target.map((t, k) => BigInt(Math.floor(t + window)) - lower[k]!);
  const missing = BigInt(WHOLE_MIX) - lower.reduce((s, l) => s + l, 0n);
  const none: Found = { units: null, proven: true, cheapest: true };
  if (cols.length === 0 || missing < 0n || missing > most.reduce((s, m) => s + m, 0n)) return none;
  const program: GridRow[] = [{ limit: null, coefficients: cols.map(() => 1n), lower: missing, upper: missing }];
  let nonzeros = 0;
  for (const row of rows) {
    const shifted = stepsRow(row, cols, lower, most);
    if (shifted === "impossible") return none;
    if (shifted === null) continue;
    program.push(shifted);
    nonzeros += shifted.coefficients.filter((a) => a !== 0n).length;
  }
  if (nonzeros > MOST_NONZEROS) return { ...none, proven: false };
  const prices = cols.map((j) => problem.candidates[j]!.price);
  const priceScale = Math.min(PRICE_DECIMALS, Math.max(0, ...prices.map((p) => decimalOf(p).scale)));
  const scaled = prices.map((p) => BigInt(Math.round(p * 10 ** priceScale)));
  const g = gcd(scaled);
  const cost = scaled.map((c) => (g === 0n ? 0n : c / g));
  const steps = cols.map(() => BigInt(NEAR));
  const exact = target.map((t, k) => BigInt(Math.round((t - Number(lower[k]!)) * NEAR)));
  const unitsOf = (n: readonly bigint[]) => {
    const units = new Int32Array(problem.candidates.length);
    cols.forEach((j, k) => (units[j] = Number(lower[k]! + n[k]!)));
    return units;
  };
  // Our own branch and bound first (grid-branch.ts, as batch sheets use it): it proves the cheapest and
  // settles its ties in one search, in a few ms where HiGHS's root alone takes tens. A feasibility test
  // is a full search too. HiGHS when it gives up; the last tie there is HiGHS's own, not the candidates' order.
  const found = branchGrid({ rows: program, cost, most, steps, exact, nameOrder: cols.map((_, k) => k) });
  if (found !== null) return found.status === "infeasible" ? none : { units: unitsOf(found.n), proven: true, cheapest: true };
  const mip = gridMip(highs, program, steps, exact, most, GUARD);
  try {
    // Without costs the first mix found is optimal: a test of the window alone.
    const objective = cheapest ? cost : cost.map(() => 0n);
    let n = mip.minimiseCost(objective);
    if (n === null) return { ...none, proven: mip.proven };
    const proven = mip.proven;
    // The nearest among the cheapest: only worth proving when the cost was (else this is the best found, not the cheapest).
    if (cheapest && proven) {
      mip.capCost(cost, n.reduce((s, v, k) => s + v * cost[k]!, 0n));
      n = mip.minimiseDeviation(n) ?? n;
    }
    return { units: unitsOf(n), proven, cheapest: cheapest && proven };
  } finally {
    mip.dispose();
  }
}

/**
 * A limit row over the steps above each window's lower end; null when nothing in the window can break
 * it, "impossible" when nothing in the window can keep it. Its bounds are only those the window can miss.
 */
function stepsRow(row: GridRow, cols: readonly number[], lower: readonly bigint[], most: readonly bigint[]): GridRow | "impossible" | null {
  const coefficients = cols.map((j) => row.coefficients[j]!);
  let base = 0n;
  let least = 0n;
  let greatest = 0n;
  coefficients.forEach((a, k) => {
    base += a * lower[k]!;
    if (a < 0n) least += a * most[k]!;
    else greatest += a * most[k]!;
  });
  // Candidates outside the mix stay at 0 and add nothing.
  const min = row.lower === null ? null : row.lower - base;
  const max = row.upper === null ? null : row.upper - base;
  if ((min !== null && min > greatest) || (max !== null && max < least)) return "impossible";
  const keptMin = min !== null && min > least ? min : null;
  const keptMax = max !== null && max < greatest ? max : null;
  return keptMin === null && keptMax === null ? null : { limit: null, coefficients, lower: keptMin, upper: keptMax };
}
