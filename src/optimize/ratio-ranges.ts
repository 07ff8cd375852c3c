/**
 * Over which values of a binding ratio limit the same limits bind (docs/decisions.md#answers-a-formulator-can-trust).
 *
 * Moving a ratio's limit L changes the coefficients of its row, not a right-hand side, so HiGHS's
 * bound ranging does not answer it. With the optimal basis B kept, only row r of B moves, by a rank
 * one term: B(L) = B + ΔL · e_r vᵀ (v = −denominator/100 on the basic candidates). By Sherman–Morrison
 * every basic value and every dual is linear in φ = ΔL / (1 + ΔL·h), h = vᵀB⁻¹e_r, a monotone map of ΔL
 * near 0; a reduced cost, whose own column moves too, is a quadratic in φ once multiplied by the
 * positive 1 − φh. The basis stays optimal (the same limits bind) while every basic value stays within
 * its bounds, every binding row's dual keeps its sign and every reduced cost stays ≥ 0: an interval
 * of φ, mapped back to L.
 */
import { BASIS, type LpSolution } from "./lp.ts";
import type { LeastCostProblem } from "./model.ts";
import { solveDense, transpose } from "./dense.ts";

const EPS = 1e-9;

/**
 * validFrom..validTo of ratio row r's limit (null: unbounded), or null when the basis is not square
 * (a solver answer without a full basis: no range is claimed then).
 * @example ratioRange(problem, solution, 7) // { from: 0.5512, to: 0.7031 }
 */
export function ratioRange(problem: LeastCostProblem, solution: LpSolution, r: number): { from: number | null; to: number | null } | null {
  const { candidates, rows } = problem;
  const n = candidates.length;
  const m = rows.length;
  const limit = rows[r]!.limit;
  if (limit?.kind !== "ratio") return null;
  // Basic variables: candidate columns, then row activities (A x − s = 0, s_k within the row's bounds).
  const basic: { kind: "col" | "row"; index: number }[] = [];
  for (let j = 0; j < n; j++) if (solution.colStatus[j] === BASIS.basic) basic.push({ kind: "col", index: j });
  for (let k = 0; k < m; k++) if (solution.rowStatus[k] === BASIS.basic) basic.push({ kind: "row", index: k });
  if (basic.length !== m) return null;
  const column = (b: (typeof basic)[number]) => Float64Array.from(rows, (row, k) => (b.kind === "col" ? row.coefficients[b.index]! : k === b.index ? -1 : 0));
  // The columns of B are the rows of Bᵀ: B x = b is solved on its rows, Bᵀ x = b on its columns.
  const columns = basic.map(column);
  const byRows = transpose(columns);
  const q = Float64Array.from(rows, (row, k) => (solution.rowStatus[k] === BASIS.basic ? 0 : solution.rowStatus[k] === BASIS.upper ? row.upper : row.lower));
  const denominator = (j: number) => (Object.hasOwn(candidates[j]!.nutrients, limit.denominator) ? candidates[j]!.nutrients[limit.denominator]! : 0) / 100;
  const v = basic.map((b) => (b.kind === "col" ? -denominator(b.index) : 0));
  const cB = basic.map((b) => (b.kind === "col" ? candidates[b.index]!.price / 100 : 0));
  const er = Float64Array.from(rows, (_, k) => (k === r ? 1 : 0));
  const z0 = solveDense(byRows, q);
  const g = solveDense(byRows, er);
  const w = solveDense(columns, v);
  const y0 = solveDense(columns, cB);
  if (!z0 || !g || !w || !y0) return null;
  const h = dot(v, g);
  const s = dot(v, z0);
  const gamma = dot(cB, g);

  let lo = -Infinity;
  let hi = Infinity;
  /** value + φ·slope within [min, max]; a value a hair outside its bound counts as on it. */
  const linear = (value: number, slope: number, min: number, max: number) => {
    if (Math.abs(slope) <= EPS) return;
    const start = Math.min(max, Math.max(min, value));
    const [toMax, toMin] = [(max - start) / slope, (min - start) / slope];
    hi = Math.min(hi, slope > 0 ? toMax : toMin);
    lo = Math.max(lo, slope > 0 ? toMin : toMax);
  };
  basic.forEach((b, i) => {
    const row = rows[b.index]!;
    const [min, max] = b.kind === "col" ? [0, candidates[b.index]!.held ? 0 : Infinity] : [row.lower, row.upper];
    linear(z0[i]!, -s * g[i]!, min, max);
  });
  // Binding rows keep the sign of their dual (a fixed level's is free): y_k(φ) = y0_k − φ γ w_k.
  for (let k = 0; k < m; k++) {
    const status = solution.rowStatus[k];
    if (status === BASIS.basic || rows[k]!.lower === rows[k]!.upper) continue;
    const yk = y0[k]!;
    linear(yk, -gamma * w[k]!, status === BASIS.lower ? 0 : -Infinity, status === BASIS.lower ? Infinity : 0);
  }
  // Reduced costs of candidates at 0 (held ones are fixed and need none): quadratic in φ.
  for (let j = 0; j < n; j++) {
    if (solution.colStatus[j] === BASIS.basic || candidates[j]!.held) continue;
    const a = rows.reduce((sum, row, k) => sum + w[k]! * row.coefficients[j]!, 0);
    const d0 = candidates[j]!.price / 100 - rows.reduce((sum, row, k) => sum + y0[k]! * row.coefficients[j]!, 0);
    const e = denominator(j);
    const [qlo, qhi] = nonNegativeAround(-gamma * a * h - gamma * w[r]! * e, gamma * a - d0 * h + y0[r]! * e, Math.max(0, d0));
    lo = Math.max(lo, qlo);
    hi = Math.min(hi, qhi);
  }
  // The map ΔL = φ / (1 − φh) holds while 1 − φh > 0.
  if (h > EPS) hi = Math.min(hi, 1 / h);
  if (h < -EPS) lo = Math.max(lo, 1 / h);
  const toL = (phi: number) => {
    if (!Number.isFinite(phi)) return phi > 0 ? (h < -EPS ? -1 / h : Infinity) : h > EPS ? -1 / h : -Infinity;
    const denom = 1 - phi * h;
    return denom <= EPS ? (phi > 0 ? Infinity : -Infinity) : phi / denom;
  };
  const from = limit.limit + toL(lo);
  const to = limit.limit + toL(hi);
  return { from: Number.isFinite(from) ? from : null, to: Number.isFinite(to) ? to : null };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/**
 * The largest interval around 0 where a·φ² + b·φ + c ≥ 0, given c ≥ 0 (at φ = 0 it holds).
 * @example nonNegativeAround(-1, 0, 4) // [-2, 2]
 */
export function nonNegativeAround(a: number, b: number, c: number): [number, number] {
  const at = (phi: number) => a * phi * phi + b * phi + c;
  const roots: number[] = [];
  if (Math.abs(a) <= EPS * Math.max(1, Math.abs(b), Math.abs(c))) {
    if (Math.abs(b) > EPS) roots.push(-c / b);
  } else {
    const disc = b * b - 4 * a * c;
    if (disc >= 0) {
      const sq = Math.sqrt(disc);
      // The stable pair of roots.
      const t = -(b + Math.sign(b || 1) * sq) / 2;
      roots.push(t / a);
      if (t !== 0) roots.push(c / t);
    }
  }
  // Just beyond a root, is the quadratic negative? Then that root ends the interval on its side.
  const probe = (phi: number, side: 1 | -1) => at(phi + side * Math.max(EPS, Math.abs(phi) * 1e-9)) < -EPS * Math.max(1, c);
  let lo = -Infinity;
  let hi = Infinity;
  for (const root of roots) {
    if (root >= 0 && probe(root, 1)) hi = Math.min(hi, root);
    if (root <= 0 && probe(root, -1)) lo = Math.max(lo, root);
  }
  // At c = 0 with a root at 0, the side the quadratic leaves downward ends at 0.
  if (c <= EPS) {
    if (at(EPS * 1e3) < -EPS * 1e-3) hi = Math.min(hi, 0);
    if (at(-EPS * 1e3) < -EPS * 1e-3) lo = Math.max(lo, 0);
  }
  return [lo, hi];
}
