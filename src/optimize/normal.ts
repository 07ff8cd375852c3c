/**
 * The standard normal distribution, for formulating to a confidence level (docs/decisions.md#optimizing-to-a-confidence-level):
 * Φ to about 1e-15 absolute (Marsaglia's series, all terms of one sign so nothing cancels) and its
 * quantile (Acklam's rational start, 1.2e-9 relative, polished by one Halley step on Φ).
 */

/** ln √(2π). */
const LOG_ROOT_TWO_PI = 0.9189385332046727;

/**
 * P(Z ≤ x) for a standard normal Z.
 * @example normalCdf(1.6448536269514722) // 0.95
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  // Beyond 38 sd Φ is 0 or 1 in double precision (and the series would overflow).
  if (x < -38) return 0;
  if (x > 38) return 1;
  let sum = x;
  let term = x;
  const q = x * x;
  for (let i = 1, last = 0; sum !== last; ) {
    last = sum;
    i += 2;
    term *= q / i;
    sum = last + term;
  }
  return 0.5 + sum * Math.exp(-0.5 * q - LOG_ROOT_TWO_PI);
}

const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
const LOW = 0.02425;

/**
 * z with Φ(z) = p, for 0 < p < 1 (z_P of a confidence level P).
 * @example normalQuantile(0.95) // 1.64485362695147 (to 1e-15)
 * @example normalQuantile(0.5) // 0
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  if (p === 0.5) return 0;
  let z: number;
  if (p < LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    z = (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
  } else if (p <= 1 - LOW) {
    const q = p - 0.5;
    const r = q * q;
    z = ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) / (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    z = -(((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
  }
  // One Halley step: the start's 1e-9 becomes the precision of Φ itself.
  const e = normalCdf(z) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((z * z) / 2);
  return z - u / (1 + (z * u) / 2);
}
