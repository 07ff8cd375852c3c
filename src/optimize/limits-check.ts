/**
 * Whether a mix on the 0.0001 % grid keeps every limit of a least-cost problem, judged exactly in
 * decimal on the percents and the stored values (no tolerance), and, for ratios, also as a saved
 * formula's warnings judge them: on the achieved levels rounded to 4 decimals, as the detail shows
 * them. A mix that passes is saved without a warning.
 */
import { achievedNutrients, checkConstraints, type FormulaConstraints, type RatioBound } from "../domain/formula-math.ts";
import { add, mul } from "./decimal-ops.ts";
import { compareRatio, compareWeighted, decimalOf, type Decimal } from "./exact.ts";
import { integerRow, type GridRow } from "./grid-rows.ts";
import type { LeastCostProblem, Limit } from "./model.ts";

/** Grid units per percent: a rounded percent is an integer number of 0.0001 %. */
export const UNITS_PER_PERCENT = 10_000;
/** Σ units of a whole mix (100 %). */
export const WHOLE_MIX = 100 * UNITS_PER_PERCENT;

/** Which of a row's bounds a grid mix breaks, and how the break was found. */
export interface Break {
  row: number;
  bound: "min" | "max";
  /** "exact": the decimal row itself; "shown": a ratio on the rounded levels a warning reads. */
  by: "exact" | "shown";
}

export interface LimitsCheck {
  /** The bounds this mix of grid units breaks ([] when it keeps every limit). */
  breaks(units: ArrayLike<number>): Break[];
}

const ZERO = decimalOf(0);

/**
 * A checker for a problem's limit rows (row 0, Σ = 100 %, is the grid's own sum and not checked here).
 * @example limitsCheck(problem).breaks(units) // [{ row: 2, bound: "min", by: "exact" }]
 */
export function limitsCheck(problem: LeastCostProblem): LimitsCheck {
  const { candidates, rows } = problem;
  const values = (key: string) => candidates.map((c) => (Object.hasOwn(c.nutrients, key) ? decimalOf(c.nutrients[key]!) : ZERO));
  const tests: ((units: ArrayLike<number>) => Break[])[] = [];
  const ratios: { row: number; ratio: RatioBound }[] = [];
  rows.forEach((row, r) => {
    const limit = row.limit;
    if (limit === null) return;
    const bounds = (["min", "max"] as const).filter((b) => Number.isFinite(b === "min" ? row.lower : row.upper));
    if (limit.kind === "ratio") {
      const a = values(limit.numerator);
      const b = values(limit.denominator);
      const l = decimalOf(limit.limit);
      tests.push((u) => {
        const sign = compareRatio(a, b, l, u);
        return bounds.filter((bound) => (bound === "min" ? sign < 0 : sign > 0)).map((bound) => ({ row: r, bound, by: "exact" as const }));
      });
      ratios.push({ row: r, ratio: { numerator: limit.numerator, denominator: limit.denominator, min: bounds.includes("min") ? limit.limit : null, max: bounds.includes("max") ? limit.limit : null } });
      return;
    }
    const [weights, scale] = weightsOf(limit, candidates, values);
    const min = limit.kind === "co2e" || limit.min === null ? null : decimalOf(limit.min);
    const max = limit.max === null || !Number.isFinite(limit.max) ? null : decimalOf(limit.max);
    tests.push((u) => {
      const found: Break[] = [];
      if (min !== null && compareWeighted(weights, u, min, scale) < 0) found.push({ row: r, bound: "min", by: "exact" });
      if (max !== null && compareWeighted(weights, u, max, scale) > 0) found.push({ row: r, bound: "max", by: "exact" });
      return found;
    });
  });
  return {
    breaks(units) {
      const found = tests.flatMap((t) => t(units));
      if (ratios.length === 0) return found;
      const shown = achievedNutrients(candidates.flatMap((c, j) => (units[j] === 0 ? [] : [{ percent: units[j]! / UNITS_PER_PERCENT, nutrients: c.nutrients }])));
      const constraints: FormulaConstraints = { nutrients: [], ingredients: [], ratios: ratios.map((r) => r.ratio) };
      for (const v of checkConstraints({ ingredients: [], nutrients: shown, constraints })) {
        const { row } = ratios.find((r) => `${r.ratio.numerator}/${r.ratio.denominator}` === v.target && r.ratio[v.bound] === v.limit)!;
        if (!found.some((f) => f.row === row && f.bound === v.bound)) found.push({ row, bound: v.bound, by: "shown" });
      }
      return found;
    },
  };
}

/**
 * Every row of a problem as exact integers, one per row (row 0, the grid's own sum, and any row that is
 * no limit have no bounds): the decimal row scaled to integers and divided by the coefficients' greatest
 * common divisor, so the activity of whole units is an integer and a bound rounds inward (⌈⌉ for a min,
 * ⌊⌋ for a max) without losing or admitting a mix. A ratio row is Σ (numerator − limit × denominator) × units against 0.
 * @example integerRows(problem)[1] // { limit: null, coefficients: [85n, 485n], lower: 245000000n, upper: null } (CP ≥ 24.5)
 */
export function integerRows(problem: LeastCostProblem): GridRow[] {
  const { candidates } = problem;
  const values = (key: string) => candidates.map((c) => (Object.hasOwn(c.nutrients, key) ? decimalOf(c.nutrients[key]!) : ZERO));
  return problem.rows.map((row) => {
    const limit = row.limit;
    if (limit === null) return { limit: null, coefficients: candidates.map(() => 0n), lower: null, upper: null };
    if (limit.kind === "ratio") {
      const l = decimalOf(limit.limit);
      const a = values(limit.numerator);
      const b = values(limit.denominator);
      const weights = a.map((v, j) => {
        const lb = mul(l, b[j]!);
        return add(v, { digits: -lb.digits, scale: lb.scale });
      });
      return integral(weights, 0, Number.isFinite(row.lower) ? ZERO : null, Number.isFinite(row.upper) ? ZERO : null);
    }
    const [weights, scale] = weightsOf(limit, candidates, values);
    const min = limit.kind === "co2e" || limit.min === null ? null : decimalOf(limit.min);
    const max = limit.max === null || !Number.isFinite(limit.max) ? null : decimalOf(limit.max);
    return integral(weights, scale, min, max);
  });
}

/** A decimal row Σ weights × units against bounds × 10^unitScale, as grid-rows.ts makes it integral. */
function integral(weights: Decimal[], unitScale: number, min: Decimal | null, max: Decimal | null): GridRow {
  const times = (d: Decimal | null) => (d === null ? null : mul(d, { digits: 10n ** BigInt(unitScale), scale: 0 }));
  return integerRow({ limit: null, coefficients: weights, lower: times(min), upper: times(max) });
}

/**
 * A nutrient's values per 100 % (units × value / 10^6 is the level), an inclusion's indicator (units / 10^4
 * is the percent), or kg CO2e per kg (units × co2e / 10^3 is kg CO2e per tonne; an unknown one is held at 0).
 */
function weightsOf(limit: Exclude<Limit, { kind: "ratio" }>, candidates: LeastCostProblem["candidates"], values: (key: string) => Decimal[]): [Decimal[], number] {
  if (limit.kind === "nutrient") return [values(limit.key), 6];
  if (limit.kind === "co2e") return [candidates.map((c) => (typeof c.co2e === "number" ? decimalOf(c.co2e) : ZERO)), 3];
  return [candidates.map((c) => (c.name === limit.name ? decimalOf(1) : ZERO)), 4];
}
