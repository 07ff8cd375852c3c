/**
 * A small dense bounded dual simplex for the nodes of a batch sheet's branch and bound
 * (grid-branch.ts). HiGHS's WebAssembly build spends a millisecond and more on every call, even a
 * re-solve after one bound moved, and a sheet needs hundreds of node LPs: here a node costs a few
 * microseconds. Variables are the m columns and one slack per row (s = A x), so the basis starts as
 * the slacks; each node starts from its parent's basis, which stays dual feasible when only bounds
 * move, and the explicit tableau is rebuilt from that basis at every node so errors do not carry from
 * node to node. Nothing here needs to be exact: grid-branch.ts draws its conclusions from bounds it
 * recomputes from the duals (any duals give a valid bound) and from the exact rows.
 */

/** minimise cost · x subject to rowLower ≤ A x ≤ rowUpper, lower ≤ x ≤ upper (A dense, row-major, rows scaled). */
export interface DenseBoxLp {
  m: number;
  k: number;
  a: Float64Array;
  cost: Float64Array;
  rowLower: Float64Array;
  rowUpper: Float64Array;
}

/** Which variable is basic in each tableau row, and where each nonbasic one sits. */
export interface DualBasis {
  basic: Int32Array;
  /** Per variable (m columns, then k slacks): 0 basic, 1 at its lower bound, 2 at its upper. */
  at: Int8Array;
}

export type DualOutcome =
  | { status: "optimal"; x: Float64Array; y: Float64Array; basis: DualBasis }
  /** The combination u of the rows that proves it, from the tableau row that could not be mended: Σ u_i (A x − s)_i = 0. */
  | { status: "infeasible"; u: Float64Array }
  | { status: "trouble" };

const PIVOT = 1e-9;
const DUAL_TOL = 1e-9;

/** The slack basis: dual feasible since every column is boxed (at its lower bound when its cost is ≥ 0). */
export function slackBasis(lp: DenseBoxLp): DualBasis {
  const at = new Int8Array(lp.m + lp.k);
  for (let j = 0; j < lp.m; j++) at[j] = lp.cost[j]! >= 0 ? 1 : 2;
  return { basic: Int32Array.from({ length: lp.k }, (_, i) => lp.m + i), at };
}

/**
 * Solve with columns boxed by `lower`/`upper` (finite), starting from `start` (not modified).
 * @example dualSimplex(lp, lower, upper, slackBasis(lp)).status // "optimal"
 */
export function dualSimplex(lp: DenseBoxLp, colLower: Float64Array, colUpper: Float64Array, start: DualBasis): DualOutcome {
  const { m, k } = lp;
  const n = m + k;
  const lower = new Float64Array(n);
  const upper = new Float64Array(n);
  lower.set(colLower);
  upper.set(colUpper);
  lower.set(lp.rowLower, m);
  upper.set(lp.rowUpper, m);
  const basic = Int32Array.from(start.basic);
  const at = Int8Array.from(start.at);
  const t = tableau(lp, basic);
  if (t === null) return { status: "trouble" };
  const cost = (j: number) => (j < m ? lp.cost[j]! : 0);
  const d = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let s = cost(j);
    for (let i = 0; i < k; i++) s -= cost(basic[i]!) * t[i * n + j]!;
    d[j] = s;
  }
  const x = new Float64Array(n);
  const beta = new Float64Array(k);
  for (let iteration = 0; iteration < 100 + 20 * k; iteration++) {
    for (let j = 0; j < n; j++) if (at[j] !== 0) x[j] = at[j] === 1 ? lower[j]! : upper[j]!;
    let leave = -1;
    let worst = 0;
    for (let i = 0; i < k; i++) {
      let s = 0;
      const row = i * n;
      for (let j = 0; j < n; j++) if (at[j] !== 0 && x[j] !== 0) s -= t[row + j]! * x[j]!;
      beta[i] = s;
      const lo = lower[basic[i]!]!;
      const hi = upper[basic[i]!]!;
      const off = s < lo ? (lo - s) / (1 + Math.abs(lo)) : s > hi ? (s - hi) / (1 + Math.abs(hi)) : 0;
      if (off > 1e-9 && off > worst) [leave, worst] = [i, off];
    }
    if (leave === -1) {
      for (let i = 0; i < k; i++) x[basic[i]!] = beta[i]!;
      return { status: "optimal", x, y: d.slice(m), basis: { basic, at } };
    }
    const b = basic[leave]!;
    const below = beta[leave]! < lower[b]!;
    const row = leave * n;
    // Harris's two passes: the largest step the duals allow within a tolerance, then the largest pivot within it.
    let bound = Infinity;
    for (let j = 0; j < n; j++) {
      const alpha = t[row + j]!;
      if (at[j] === 0 || lower[j] === upper[j] || !eligible(at[j]!, alpha, below)) continue;
      bound = Math.min(bound, (Math.max(0, at[j] === 1 ? d[j]! : -d[j]!) + DUAL_TOL) / Math.abs(alpha));
    }
    if (bound === Infinity) return { status: "infeasible", u: Float64Array.from({ length: k }, (_, i) => -t[row + m + i]!) };
    let enter = -1;
    let size = 0;
    for (let j = 0; j < n; j++) {
      const alpha = t[row + j]!;
      if (at[j] === 0 || lower[j] === upper[j] || !eligible(at[j]!, alpha, below)) continue;
      if (Math.max(0, at[j] === 1 ? d[j]! : -d[j]!) / Math.abs(alpha) <= bound && Math.abs(alpha) > size) [enter, size] = [j, Math.abs(alpha)];
    }
    pivot(t, d, k, n, leave, enter);
    basic[leave] = enter;
    at[enter] = 0;
    at[b] = below ? 1 : 2;
  }
  return { status: "trouble" };
}

/** A nonbasic variable that moves the leaving one toward its violated bound: x_B = −Σ α_j x_j. */
function eligible(at: number, alpha: number, below: boolean): boolean {
  if (Math.abs(alpha) <= PIVOT) return false;
  // Raising a variable at its lower bound changes x_B by −α; lowering one at its upper by +α.
  return below ? (at === 1 ? alpha < 0 : alpha > 0) : at === 1 ? alpha > 0 : alpha < 0;
}

function pivot(t: Float64Array, d: Float64Array, k: number, n: number, r: number, q: number) {
  const row = r * n;
  const p = t[row + q]!;
  for (let j = 0; j < n; j++) t[row + j]! /= p;
  for (let i = 0; i < k; i++) {
    if (i === r) continue;
    const f = t[i * n + q]!;
    if (f === 0) continue;
    for (let j = 0; j < n; j++) t[i * n + j]! -= f * t[row + j]!;
  }
  const f = d[q]!;
  for (let j = 0; j < n; j++) d[j]! -= f * t[row + j]!;
}

/** B⁻¹ [A | −I] by Gauss–Jordan, tableau row i belonging to basic[i]; null when the basis is numerically singular. */
function tableau(lp: DenseBoxLp, basic: Int32Array): Float64Array | null {
  const { m, k } = lp;
  const n = m + k;
  const t = new Float64Array(k * n);
  for (let i = 0; i < k; i++) {
    t.set(lp.a.subarray(i * m, i * m + m), i * n);
    t[i * n + m + i] = -1;
  }
  const scratch = new Float64Array(n);
  for (let c = 0; c < k; c++) {
    const q = basic[c]!;
    let r = -1;
    let size = 1e-11;
    for (let i = c; i < k; i++) if (Math.abs(t[i * n + q]!) > size) [r, size] = [i, Math.abs(t[i * n + q]!)];
    if (r === -1) return null;
    if (r !== c) {
      const swap = t.slice(r * n, r * n + n);
      t.copyWithin(r * n, c * n, c * n + n);
      t.set(swap, c * n);
    }
    pivot(t, scratch, k, n, c, q);
  }
  return t;
}
