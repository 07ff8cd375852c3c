/**
 * A formula's limits as exact integer rows over whole numbers of scale steps (docs/decisions.md#batch-sheets).
 * Line i weighs n_i steps of s_i kg, so its percent is 100 × s_i × n_i / size. Each limit, multiplied
 * by `size`, is a row Σ c_i × n_i against a bound with decimal coefficients; scaled to integers and
 * divided by their greatest common divisor, the activity of whole n is an integer, so a bound can be
 * rounded inward to an integer without losing or admitting any mix (⌈⌉ for a min, ⌊⌋ for a max). The
 * same rows serve the solver (as doubles, with its tolerance far below 1) and the exact check (bigint).
 */
import { add, atScale, ceilDiv, floorDiv, gcd, mul, ZERO } from "./decimal-ops.ts";
import { decimalOf, type Decimal } from "./exact.ts";
import type { FormulaConstraints } from "../domain/formula-math.ts";
import type { FormulaLimit } from "./limit-target.ts";

export interface GridLine {
  name: string;
  /** kg per step of this line's scale. */
  step: number;
  nutrients: Readonly<Record<string, number>>;
}

export interface GridRow {
  /** null for Σ kg = size. */
  limit: FormulaLimit | null;
  coefficients: bigint[];
  /** Inclusive integer bounds on Σ coefficients × n; null = none. */
  lower: bigint | null;
  upper: bigint | null;
}

const valueOf = (nutrients: Readonly<Record<string, number>>, key: string) => (Object.hasOwn(nutrients, key) ? nutrients[key]! : 0);

/** One limit as decimals: coefficients per line and its bounds, all already multiplied by size. */
export interface DecimalRow {
  limit: FormulaLimit | null;
  coefficients: Decimal[];
  lower: Decimal | null;
  upper: Decimal | null;
}

/**
 * The rows of Σ kg = size and of every limit, over n (steps per line).
 * @example gridRows([{ name: "Maize", step: 0.5, nutrients: { CP: 8.5 } }], 10, { nutrients: [{ key: "CP", min: 8, max: null }], ingredients: [], ratios: [] })
 */
export function gridRows(lines: readonly GridLine[], size: number, constraints: FormulaConstraints): GridRow[] {
  const steps = lines.map((l) => decimalOf(l.step));
  const total = decimalOf(size);
  const times = (x: number | null) => (x === null ? null : mul(decimalOf(x), total));
  const rows: DecimalRow[] = [{ limit: null, coefficients: steps, lower: total, upper: total }];
  for (const c of constraints.nutrients) {
    if (c.min === null && c.max === null) continue;
    rows.push({ limit: { kind: "nutrient", ...c }, coefficients: lines.map((l, i) => mul(decimalOf(valueOf(l.nutrients, c.key)), steps[i]!)), lower: times(c.min), upper: times(c.max) });
  }
  for (const c of constraints.ingredients) {
    if (c.min === null && c.max === null) continue;
    const hundred = decimalOf(100);
    rows.push({ limit: { kind: "ingredient", ...c }, coefficients: lines.map((l, i) => (l.name === c.name ? mul(hundred, steps[i]!) : ZERO)), lower: times(c.min), upper: times(c.max) });
  }
  for (const r of constraints.ratios ?? []) {
    const sides = r.min !== null && r.min === r.max ? [{ limit: r.min, lower: ZERO, upper: ZERO }] : [
      ...(r.min === null ? [] : [{ limit: r.min, lower: ZERO, upper: null }]),
      ...(r.max === null ? [] : [{ limit: r.max, lower: null, upper: ZERO }]),
    ];
    for (const side of sides) {
      const l = decimalOf(side.limit);
      const coefficients = lines.map((line, i) => {
        const num = decimalOf(valueOf(line.nutrients, r.numerator));
        const den = mul(l, decimalOf(valueOf(line.nutrients, r.denominator)));
        return mul(add(num, { digits: -den.digits, scale: den.scale }), steps[i]!);
      });
      rows.push({ limit: { kind: "ratio", numerator: r.numerator, denominator: r.denominator, limit: side.limit }, coefficients, lower: side.lower, upper: side.upper });
    }
  }
  return rows.map(integerRow);
}

/** The row scaled to integers and divided by the coefficients' greatest common divisor, each bound rounded inward. */
export function integerRow(row: DecimalRow): GridRow {
  const scale = Math.max(...row.coefficients.map((c) => c.scale), row.lower?.scale ?? 0, row.upper?.scale ?? 0);
  const ints = row.coefficients.map((c) => atScale(c, scale));
  const g = gcd(ints);
  if (g === 0n) {
    // Every line counts 0 here: the activity is 0, which a bound either admits or no mix can meet.
    const lower = row.lower && atScale(row.lower, scale) > 0n ? 1n : null;
    const upper = row.upper && atScale(row.upper, scale) < 0n ? -1n : null;
    return { limit: row.limit, coefficients: ints, lower, upper };
  }
  return {
    limit: row.limit,
    coefficients: ints.map((c) => c / g),
    lower: row.lower ? ceilDiv(atScale(row.lower, scale), g) : null,
    upper: row.upper ? floorDiv(atScale(row.upper, scale), g) : null,
  };
}

/** Σ coefficients × n, exactly. */
export function gridActivity(row: GridRow, n: readonly bigint[]): bigint {
  let sum = 0n;
  for (let i = 0; i < n.length; i++) sum += row.coefficients[i]! * n[i]!;
  return sum;
}

/**
 * The bounds of `row` that whole steps `n` miss, exactly.
 * @example missedBounds(rows[1], [20n]) // ["min"]
 */
export function missedBounds(row: GridRow, n: readonly bigint[]): ("min" | "max")[] {
  const a = gridActivity(row, n);
  return [...(row.lower !== null && a < row.lower ? ["min" as const] : []), ...(row.upper !== null && a > row.upper ? ["max" as const] : [])];
}
