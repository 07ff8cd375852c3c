/**
 * Exact decimal arithmetic for judging a rounded mix: percents on the 0.0001 grid are integers of
 * 1e-4 %, and every stored value (a nutrient level, a price, a limit) is the decimal its shortest
 * printed form says, so Σ value × percent compared with a limit has an exact answer, with no solver
 * or floating-point tolerance (docs/decisions.md#least-cost-formulation).
 */

/** value = digits × 10^−scale. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

const FORM = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * The decimal a finite number was written as (its shortest round-trip form).
 * @example decimalOf(0.64) // { digits: 64n, scale: 2 }
 * @example decimalOf(1e-7) // { digits: 1n, scale: 7 }
 */
export function decimalOf(x: number): Decimal {
  const match = FORM.exec(String(x));
  if (!match) throw new RangeError(`not a finite number: ${x}`);
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let digits = BigInt(`${sign}${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** The digits of d at a scale at least its own. */
const at = (d: Decimal, scale: number) => d.digits * 10n ** BigInt(scale - d.scale);

/**
 * Σ values[j] × units[j] compared with limit × 10^unitScale: −1, 0 or 1, exactly. With units in
 * 1e-4 % and values per 100 % of the mix, unitScale 6 makes the sum the mix's nutrient level.
 * @example compareWeighted([decimalOf(8.5), decimalOf(48.5)], [600_000, 400_000], decimalOf(24.5), 6) // 0
 */
export function compareWeighted(values: readonly Decimal[], units: ArrayLike<number>, limit: Decimal, unitScale: number): -1 | 0 | 1 {
  const scale = Math.max(limit.scale, ...values.map((v) => v.scale));
  let sum = 0n;
  for (let j = 0; j < values.length; j++) if (units[j] !== 0) sum += at(values[j]!, scale) * BigInt(units[j]!);
  const right = at(limit, scale) * 10n ** BigInt(unitScale);
  return sum < right ? -1 : sum > right ? 1 : 0;
}

/**
 * Σ values[j] × units[j] / 10^unitScale as the nearest number (for a cost per ton to be rounded once).
 * @example weightedSum([decimalOf(228.37)], [1_000_000], 6) // 228.37
 */
export function weightedSum(values: readonly Decimal[], units: ArrayLike<number>, unitScale: number): number {
  const scale = Math.max(0, ...values.map((v) => v.scale));
  let sum = 0n;
  for (let j = 0; j < values.length; j++) if (units[j] !== 0) sum += at(values[j]!, scale) * BigInt(units[j]!);
  const shift = scale + unitScale;
  const negative = sum < 0n;
  const text = (negative ? -sum : sum).toString().padStart(shift + 1, "0");
  return Number(`${negative ? "-" : ""}${text.slice(0, text.length - shift)}.${text.slice(text.length - shift) || "0"}`);
}

/**
 * Σ (a[j] − limit × b[j]) × units[j] compared with 0, exactly: a ratio limit's row on a rounded mix.
 * @example compareRatio([decimalOf(0.5)], [decimalOf(0.8)], decimalOf(0.64), [1_000_000]) // −1 (0.5 − 0.512 < 0)
 */
export function compareRatio(a: readonly Decimal[], b: readonly Decimal[], limit: Decimal, units: ArrayLike<number>): -1 | 0 | 1 {
  const scale = Math.max(0, ...a.map((v) => v.scale), ...b.map((v) => v.scale + limit.scale));
  let sum = 0n;
  for (let j = 0; j < a.length; j++) {
    if (units[j] === 0) continue;
    sum += (at(a[j]!, scale) - at({ digits: limit.digits * b[j]!.digits, scale: limit.scale + b[j]!.scale }, scale)) * BigInt(units[j]!);
  }
  return sum < 0n ? -1 : sum > 0n ? 1 : 0;
}
