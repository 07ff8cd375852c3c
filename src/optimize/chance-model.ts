/**
 * Chance limits (docs/decisions.md#optimizing-to-a-confidence-level): a nutrient limit that must hold
 * with probability P when each candidate's value of that nutrient is normal (its book value, its sd)
 * and candidates vary independently. The achieved value of a mix x (percents) is then normal with
 * mean Σ v_j x_j / 100 and sd √(Σ s_j² x_j²) / 100, so the limit holds with probability ≥ P exactly when
 * mean − z·sd ≥ min (a min) or mean + z·sd ≤ max (a max), z the standard normal quantile of P: a
 * second-order cone, convex for P ≥ 0.5.
 */
import type { FormulaConstraints } from "../domain/formula-math.ts";
import type { Candidate, Row } from "./model.ts";

/** Standard deviations by ingredient name, then nutrient key (absent: 0, a fixed value). */
export type Sds = Readonly<Record<string, Readonly<Record<string, number>>>>;

export interface ChanceLimit {
  key: string;
  side: "min" | "max";
  limit: number;
  /** Per candidate: value / 100, so Σ mean_j x_j is the achieved mean. */
  mean: Float64Array;
  /** Per candidate: (sd / 100)², so √(Σ variance_j x_j²) is the achieved sd. */
  variance: Float64Array;
}

/**
 * The sd of one candidate's nutrient: the given one, or 0 when none is given or the book values lack the
 * key (a missing value counts 0, and a fixed 0 does not vary).
 * @example sdOf({ Maize: { CP: 0.6 } }, "Maize", { CP: 8.5 }, "CP") // 0.6
 */
export function sdOf(sds: Sds, name: string, nutrients: Readonly<Record<string, number>>, key: string): number {
  if (!Object.hasOwn(nutrients, key) || !Object.hasOwn(sds, name)) return 0;
  const own = sds[name]!;
  return Object.hasOwn(own, key) ? own[key]! : 0;
}

/**
 * One chance limit per side of every nutrient limit that some candidate's sd makes uncertain (a limit
 * where every sd is 0 stays the plain linear row, which the least-cost problem has already).
 * @example chanceLimits(candidates, { nutrients: [{ key: "CP", min: 21, max: null }], ingredients: [], ratios: [] }, { "Soybean meal": { CP: 1.4 } })
 */
export function chanceLimits(candidates: readonly Candidate[], constraints: FormulaConstraints, sds: Sds): ChanceLimit[] {
  return constraints.nutrients.flatMap(({ key, min, max }) => {
    const variance = Float64Array.from(candidates, (c) => (sdOf(sds, c.name, c.nutrients, key) / 100) ** 2);
    if (variance.every((v) => v === 0)) return [];
    const mean = Float64Array.from(candidates, (c) => (Object.hasOwn(c.nutrients, key) ? c.nutrients[key]! : 0) / 100);
    const sides: ChanceLimit[] = [];
    if (min !== null) sides.push({ key, side: "min", limit: min, mean, variance });
    if (max !== null) sides.push({ key, side: "max", limit: max, mean, variance });
    return sides;
  });
}

/**
 * Mean and sd of the achieved value of a mix (percents).
 * @example meanAndSd(limit, [60, 40]) // { mean: 24.5, sd: 0.58 }
 */
export function meanAndSd(c: Pick<ChanceLimit, "mean" | "variance">, x: ArrayLike<number>): { mean: number; sd: number } {
  let mean = 0;
  let variance = 0;
  for (let j = 0; j < c.mean.length; j++) {
    const xj = x[j]!;
    mean += c.mean[j]! * xj;
    variance += c.variance[j]! * xj * xj;
  }
  return { mean, sd: Math.sqrt(variance) };
}

/**
 * How far a mix misses the chance limit, in the nutrient's own unit (≤ 0: met): min − (mean − z·sd), or
 * (mean + z·sd) − max; `margin` moves the limit inward (the rounding's room).
 * @example shortfall(limit, 1.645, x) // 0.0031: 0.0031 % CP short of holding with probability 0.95
 */
export function shortfall(c: ChanceLimit, z: number, x: ArrayLike<number>, margin = 0): number {
  const { mean, sd } = meanAndSd(c, x);
  return c.side === "min" ? c.limit + margin - (mean - z * sd) : mean + z * sd - (c.limit - margin);
}

/**
 * The tangent cut of a chance limit at the mix x0 (with sd > 0 there): sd(x) ≥ Σ s_j² x0_j x_j / sd(x0) for
 * every x (Cauchy–Schwarz), with equality along the ray through x0, so the row keeps every mix that meets
 * the limit and cuts x0 off when x0 misses it. A nutrient row of its key, so the rounding treats it as one.
 * @example cutAt(limit, 1.645, x0).lower // the limit's min
 */
export function cutAt(c: ChanceLimit, z: number, x0: ArrayLike<number>, margin = 0): Row {
  const { sd } = meanAndSd(c, x0);
  const sign = c.side === "min" ? -1 : 1;
  // Where the sd is 0 the cone has no tangent; mean ≥ limit (or ≤) is then the cut: it holds wherever the limit does.
  const coefficients = sd === 0 ? Float64Array.from(c.mean) : Float64Array.from(c.mean, (m, j) => m + (sign * z * c.variance[j]! * x0[j]!) / sd);
  const limit = c.side === "min" ? c.limit + margin : c.limit - margin;
  return c.side === "min"
    ? { limit: { kind: "nutrient", key: c.key, min: limit, max: null }, coefficients, lower: limit, upper: Infinity }
    : { limit: { kind: "nutrient", key: c.key, min: null, max: limit }, coefficients, lower: -Infinity, upper: limit };
}
