/**
 * Exact decimal arithmetic for checks that must not depend on binary floating point or a solver's
 * tolerance: a value is an integer `units` times 10^-scale. A JavaScript number is read as the
 * decimal it prints as (its shortest round-trip form), which is the decimal a person typed into a
 * CSV or a query string: 0.1 is exactly one tenth here.
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

/**
 * The decimal a number prints as.
 * @example toDecimal(8.5) // { units: 85n, scale: 1 }
 * @example toDecimal(1e-7) // { units: 1n, scale: 7 }
 */
export function toDecimal(x: number): Decimal {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const [mantissa, exp] = x.toExponential().split("e") as [string, string];
  const negative = mantissa.startsWith("-");
  const [whole, fraction = ""] = (negative ? mantissa.slice(1) : mantissa).split(".") as [string, string?];
  const digits = BigInt(whole + fraction) * (negative ? -1n : 1n);
  const scale = fraction.length - Number(exp);
  return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** The same value with `scale` decimals (scale ≥ the value's own). */
export function atScale(d: Decimal, scale: number): bigint {
  if (scale < d.scale) throw new RangeError(`cannot lower the scale of a decimal from ${d.scale} to ${scale}`);
  return d.units * 10n ** BigInt(scale - d.scale);
}

/** @example mul(toDecimal(0.5), toDecimal(0.25)) // { units: 125n, scale: 3 } */
export const mul = (a: Decimal, b: Decimal): Decimal => ({ units: a.units * b.units, scale: a.scale + b.scale });

/** @example add(toDecimal(0.1), toDecimal(0.2)) // 0.3 exactly */
export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: atScale(a, scale) + atScale(b, scale), scale };
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

/** -1, 0 or 1. @example compare(toDecimal(0.3), add(toDecimal(0.1), toDecimal(0.2))) // 0 */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const d = atScale(a, scale) - atScale(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Nearest double (for display and the solver, never for a check). */
export const toNumber = (d: Decimal): number => Number(`${d.units}e-${d.scale}`);

/** Greatest common divisor of absolute values (0 for none). */
export function gcd(values: Iterable<bigint>): bigint {
  let g = 0n;
  for (let v of values) {
    if (v < 0n) v = -v;
    while (v !== 0n) [g, v] = [v, g % v];
  }
  return g;
}

/** ⌈a / b⌉ and ⌊a / b⌋ for b > 0 (bigint division truncates toward zero). */
export const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : -(-a / b));
export const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
