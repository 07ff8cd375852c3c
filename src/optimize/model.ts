/**
 * The least-cost linear program of a formula (docs/decisions.md#least-cost-formulation), as plain data:
 * one column per candidate ingredient (x = percent of the mix), one row per limit. Every limit is a
 * row, inclusion limits included, so each has its own dual and range; column bounds hold only what is
 * never relaxed (x ≥ 0, an out-of-stock hold at 0).
 */
import type { Bound, FormulaConstraints } from "../domain/formula-math.ts";

export interface Candidate {
  name: string;
  /** Price per ton used for this solve (the database's, or a what-if). */
  price: number;
  /** Out of stock and not released by includeOutOfStock: held at 0, not a constraint. */
  held: boolean;
  nutrients: Readonly<Record<string, number>>;
  /** kg CO2e per kg as fed; null or absent = unknown (held at 0 under a CO2e cap and on the frontier). */
  co2e?: number | null;
}

/**
 * Which formula limit a row stands for. A ratio's row is linear in x only for one value of the ratio,
 * so a ratio with a range is two rows (≥ 0 for its min, ≤ 0 for its max), and a fixed ratio (min = max) one row (= 0).
 */
export type Limit =
  | { kind: "nutrient"; key: string; min: number | null; max: number | null }
  | { kind: "ingredient"; name: string; min: number | null; max: number | null }
  | { kind: "ratio"; numerator: string; denominator: string; limit: number }
  | { kind: "co2e"; max: number };

export interface Row {
  /** null for Σ x = 100, which is not a limit of the formula. */
  limit: Limit | null;
  /** Dense coefficients, one per candidate; the activity is the nutrient value, the percent, or the ratio's linear form. */
  coefficients: Float64Array;
  lower: number;
  upper: number;
}

export interface LeastCostProblem {
  candidates: Candidate[];
  /** Row 0 is Σ x = 100. */
  rows: Row[];
}

/** A variable this close to a bound is at it (x in percent; rows in their own unit, scaled by the bound). */
export const AT_BOUND = 1e-7;
/** Whether candidate j is in the mix (above 1e-7 %): the line between `ranging` and `excluded`. */
export const inMix = (x: ArrayLike<number>, j: number) => x[j]! > AT_BOUND;
/** The candidates a rounding of optimum x may move: in its mix and not held at a fixed level. */
export const movable = (problem: LeastCostProblem, x: ArrayLike<number>): number[] => problem.candidates.flatMap((c, j) => (inMix(x, j) && !c.held ? [j] : []));
export const atBound = (value: number, bound: number) => Number.isFinite(bound) && Math.abs(value - bound) <= AT_BOUND * Math.max(1, Math.abs(bound));
const valueOf = (nutrients: Readonly<Record<string, number>>, key: string) => (Object.hasOwn(nutrients, key) ? nutrients[key]! : 0);
const lowerOf = (b: Bound) => (b.min === null ? -Infinity : b.min);
const upperOf = (b: Bound) => (b.max === null ? Infinity : b.max);

/**
 * The problem for these candidates and limits. Nutrient rows are Σ value × x / 100 (the achieved value);
 * inclusion rows are x itself (a name that is no candidate has an empty row: it counts 0); a ratio's
 * row is Σ (numerator − limit × denominator) × x / 100, ≥ 0 for a min and ≤ 0 for a max.
 * @example buildProblem([{ name: "Maize", price: 228, held: false, nutrients: { CP: 8.5 } }], { nutrients: [{ key: "CP", min: 8, max: null }], ingredients: [], ratios: [] })
 */
export function buildProblem(candidates: Candidate[], constraints: FormulaConstraints): LeastCostProblem {
  const n = candidates.length;
  const column = new Map(candidates.map((c, i) => [c.name, i]));
  const rows: Row[] = [{ limit: null, coefficients: new Float64Array(n).fill(1), lower: 100, upper: 100 }];
  const per = (f: (c: Candidate) => number) => Float64Array.from(candidates, f);

  for (const c of constraints.nutrients) {
    if (c.min === null && c.max === null) continue;
    rows.push({ limit: { kind: "nutrient", ...c }, coefficients: per((cand) => valueOf(cand.nutrients, c.key) / 100), lower: lowerOf(c), upper: upperOf(c) });
  }
  for (const c of constraints.ingredients) {
    if (c.min === null && c.max === null) continue;
    const coefficients = new Float64Array(n);
    const j = column.get(c.name);
    if (j !== undefined) coefficients[j] = 1;
    rows.push({ limit: { kind: "ingredient", ...c }, coefficients, lower: lowerOf(c), upper: upperOf(c) });
  }
  for (const r of constraints.ratios ?? []) {
    const sides = r.min !== null && r.min === r.max ? [{ limit: r.min, lower: 0, upper: 0 }] : [
      ...(r.min === null ? [] : [{ limit: r.min, lower: 0, upper: Infinity }]),
      ...(r.max === null ? [] : [{ limit: r.max, lower: -Infinity, upper: 0 }]),
    ];
    for (const { limit, lower, upper } of sides) {
      rows.push({
        limit: { kind: "ratio", numerator: r.numerator, denominator: r.denominator, limit },
        coefficients: ratioCoefficients(candidates, r.numerator, r.denominator, limit),
        lower,
        upper,
      });
    }
  }
  return { candidates, rows };
}

/**
 * A ratio's linear row for one value of the ratio: (numerator − limit × denominator) × x / 100.
 * @example ratioCoefficients([{ name: "Limestone", price: 60, held: false, nutrients: { Ca: 38 } }], "Ca", "avP", 2) // Float64Array [0.38]
 */
export function ratioCoefficients(candidates: readonly Candidate[], numerator: string, denominator: string, limit: number): Float64Array {
  return Float64Array.from(candidates, (c) => (valueOf(c.nutrients, numerator) - limit * valueOf(c.nutrients, denominator)) / 100);
}

/**
 * Candidate names in the order the result lists them: the composition, then names in inclusion
 * limits, then `include`, each once.
 * @example candidateNames(["Maize", "Soybean meal 48%"], ["Wheat"], ["Maize", "Barley"]) // ["Maize", "Soybean meal 48%", "Wheat", "Barley"]
 */
export function candidateNames(composition: readonly string[], limited: readonly string[], include: readonly string[]): string[] {
  return [...new Set([...composition, ...limited, ...include])];
}

/** Σ a × x for a dense row. */
export function activity(coefficients: Float64Array, x: ArrayLike<number>): number {
  let sum = 0;
  for (let j = 0; j < coefficients.length; j++) sum += coefficients[j]! * x[j]!;
  return sum;
}

/**
 * The level of a nutrient in a mix: Σ value × x / 100 (a missing value counts 0).
 * @example nutrientLevel([{ name: "Maize", price: 228, held: false, nutrients: { CP: 8.5 } }], "CP", [100]) // 8.5
 */
export function nutrientLevel(candidates: readonly Candidate[], key: string, x: ArrayLike<number>): number {
  let sum = 0;
  for (let j = 0; j < candidates.length; j++) sum += (valueOf(candidates[j]!.nutrients, key) * x[j]!) / 100;
  return sum;
}

/** Cost per ton of a mix: Σ price × x / 100. */
export function costPerTon(candidates: readonly Candidate[], x: ArrayLike<number>): number {
  let sum = 0;
  for (let j = 0; j < candidates.length; j++) sum += (candidates[j]!.price * x[j]!) / 100;
  return sum;
}
