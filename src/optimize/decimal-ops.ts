/**
 * Arithmetic on exact decimals (./exact.ts's `Decimal`, digits × 10^-scale) for the checks that must not
 * depend on binary floating point or a solver's tolerance: batch sheets scale limits to integer rows.
 */
import type { Decimal } from "./exact.ts";

/** The same value with `scale` decimals (scale ≥ the value's own). */
export function atScale(d: Decimal, scale: number): bigint {
  if (scale < d.scale) throw new RangeError(`cannot lower the scale of a decimal from ${d.scale} to ${scale}`);
  return d.digits * 10n ** BigInt(scale - d.scale);
}

/** @example mul(decimalOf(0.5), decimalOf(0.25)) // { digits: 125n, scale: 3 } */
export const mul = (a: Decimal, b: Decimal): Decimal => ({ digits: a.digits * b.digits, scale: a.scale + b.scale });

/** @example add(decimalOf(0.1), decimalOf(0.2)) // 0.3 exactly */
export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { digits: atScale(a, scale) + atScale(b, scale), scale };
}

export const ZERO: Decimal = { digits: 0n, scale: 0 };

/** -1, 0 or 1. @example compare(decimalOf(0.3), add(decimalOf(0.1), decimalOf(0.2))) // 0 */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const d = atScale(a, scale) - atScale(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

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
