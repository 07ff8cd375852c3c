/**
 * How firm an optimum is (docs/decisions.md#least-cost-formulation): shadow prices of the binding limits
 * with the range over which each holds, the price range over which the composition stays optimal, and
 * the price below which an excluded candidate enters.
 *
 * HiGHS ranges the optimal *basis*. When no basic variable sits at a bound (the optimum is not
 * degenerate), that basis is the only one describing this composition, so its cost ranges are exactly
 * the ranges of the composition. When the optimum is degenerate, other bases describe the same mix and
 * the basis ranges can be too narrow; each price range end is then computed exactly from the set of
 * all dual certificates of this composition (see price-margins.ts).
 */
import type { Highs } from "highs";
import { BASIS, type LpSolution } from "./lp.ts";
import { priceMargins } from "./price-margins.ts";
import { ratioRange } from "./ratio-ranges.ts";
import { atBound, inMix, nutrientLevel, type LeastCostProblem, type Limit } from "./model.ts";

export interface ShadowPrice {
  row: number;
  limit: Limit;
  bound: "min" | "max";
  /** The bound's value: a nutrient level, a percent, or a ratio. */
  value: number;
  /** d(cost per ton) / d(limit). */
  shadowPrice: number;
  /** The limit's range over which the shadow price holds (a ratio's: over which the same limits bind; null = unbounded). */
  validFrom: number | null;
  validTo: number | null;
}

export interface Sensitivity {
  shadowPrices: ShadowPrice[];
  /** Per candidate: for one in the mix, the price range keeping this composition optimal (null = unbounded). */
  priceLow: (number | null)[];
  priceHigh: (number | null)[];
  /** Per candidate at 0 %: the price below which it enters (null: never, or held out of stock). */
  entersBelow: (number | null)[];
  /** Whether the price ranges came from the exact programs (a degenerate optimum) rather than the basis. */
  degenerate: boolean;
}

const finiteOrNull = (v: number) => (Number.isFinite(v) && Math.abs(v) < 1e30 ? v : null);

/**
 * Sensitivity of an optimal solution of `problem`; `exactRanges` computes the price ranges by the exact
 * programs even when the basis ranges would do.
 * @example const s = sensitivityOf(highs, problem, solveLp(highs, lpOf(problem), { ranging: true }))
 */
export function sensitivityOf(highs: Highs, problem: LeastCostProblem, solution: LpSolution, options: { exactRanges?: boolean } = {}): Sensitivity {
  const { candidates, rows } = problem;
  const { x, rowDual, rowStatus, colStatus, rowValue } = solution;
  const ranging = solution.ranging!;

  const shadowPrices: ShadowPrice[] = [];
  for (let r = 1; r < rows.length; r++) {
    const status = rowStatus[r];
    if (status !== BASIS.lower && status !== BASIS.upper) continue;
    const row = rows[r]!;
    const limit = row.limit!;
    // A fixed level (min = max) binds on the side its dual pushes: a positive dual holds the level up.
    const bound = row.lower === row.upper ? (rowDual[r]! >= 0 ? "min" : "max") : status === BASIS.lower ? "min" : "max";
    if (limit.kind === "ratio") {
      // Moving the ratio's limit by d moves its row's right-hand side by d × (achieved denominator), to first order.
      const shadowPrice = rowDual[r]! * nutrientLevel(candidates, limit.denominator, x);
      const range = ratioRange(problem, solution, r);
      let [validFrom, validTo] = [range?.from ?? null, range?.to ?? null];
      // One side of a ratio cannot pass its other side (a row of its own).
      const other = rows.find((o, k) => k !== r && o.limit?.kind === "ratio" && o.limit.numerator === limit.numerator && o.limit.denominator === limit.denominator);
      const otherLimit = other?.limit?.kind === "ratio" ? other.limit.limit : null;
      if (otherLimit !== null && bound === "min" && otherLimit >= limit.limit) validTo = validTo === null ? otherLimit : Math.min(validTo, otherLimit);
      if (otherLimit !== null && bound === "max" && otherLimit <= limit.limit) validFrom = validFrom === null ? otherLimit : Math.max(validFrom, otherLimit);
      shadowPrices.push({ row: r, limit, bound, value: limit.limit, shadowPrice, validFrom, validTo });
      continue;
    }
    const value = bound === "min" ? row.lower : row.upper;
    let validFrom = finiteOrNull(ranging.rowBoundDown.value[r]!);
    let validTo = finiteOrNull(ranging.rowBoundUp.value[r]!);
    // One bound of a two-sided limit cannot pass the other one.
    if (row.lower !== row.upper) {
      if (bound === "min" && Number.isFinite(row.upper)) validTo = validTo === null ? row.upper : Math.min(validTo, row.upper);
      if (bound === "max" && Number.isFinite(row.lower)) validFrom = validFrom === null ? row.lower : Math.max(validFrom, row.lower);
    }
    shadowPrices.push({ row: r, limit, bound, value, shadowPrice: rowDual[r]!, validFrom, validTo });
  }

  const n = candidates.length;
  const degenerate =
    candidates.some((_, j) => colStatus[j] === BASIS.basic && !inMix(x, j)) ||
    rows.some((row, r) => rowStatus[r] === BASIS.basic && (atBound(rowValue[r]!, row.lower) || atBound(rowValue[r]!, row.upper)));

  const priceLow: (number | null)[] = new Array(n).fill(null);
  const priceHigh: (number | null)[] = new Array(n).fill(null);
  const entersBelow: (number | null)[] = new Array(n).fill(null);
  // exactRanges: the tests compute both ways on non-degenerate optima and compare.
  if (degenerate || options.exactRanges) {
    const margins = priceMargins(highs, problem, solution);
    try {
      for (let j = 0; j < n; j++) {
        if (candidates[j]!.held) continue;
        const price = candidates[j]!.price;
        const down = margins.down(j);
        const low = down === Infinity ? null : price - down;
        if (inMix(x, j)) {
          const up = margins.up(j);
          priceLow[j] = low;
          priceHigh[j] = up === Infinity ? null : price + up;
        } else entersBelow[j] = low;
      }
    } finally {
      margins.dispose();
    }
  } else {
    // Cost coefficients are price / 100 (cost per ton of x percent).
    for (let j = 0; j < n; j++) {
      if (candidates[j]!.held) continue;
      const down = finiteOrNull(ranging.colCostDown.value[j]!);
      if (inMix(x, j)) {
        const up = finiteOrNull(ranging.colCostUp.value[j]!);
        priceLow[j] = down === null ? null : down * 100;
        priceHigh[j] = up === null ? null : up * 100;
      } else entersBelow[j] = down === null ? null : down * 100;
    }
  }
  return { shadowPrices, priceLow, priceHigh, entersBelow, degenerate };
}
