/**
 * A node of a batch sheet's branch and bound (grid-branch.ts): its box, and what is proven about it
 * from floating-point LP answers without trusting their tolerances: a Lagrangian lower bound on the
 * cost of its points, reduced-cost tightening of its box, and infeasibility from a combination of rows.
 */
import type { DenseBoxLp, DualBasis, DualOutcome } from "./bounded-dual.ts";
import type { GridRow } from "./grid-rows.ts";

export interface Node {
  /** A bound no point of the node costs less than (its parent's, or its own once solved). */
  floor: number;
  /** Its LP when strong branching solved it already. */
  solved?: DualOutcome;
  /** The branching that made it: column, side, distance moved, the parent's bound (for pseudocosts). */
  origin?: { j: number; up: boolean; moved: number; parent: number };
  lower: Float64Array;
  upper: Float64Array;
  basis: DualBasis;
}

/** A copy of `node` with column j boxed to [lower, upper], starting from `basis`, no point below `floor`. */
export const child = (node: Node, basis: DualBasis, floor: number, j: number, lower: number, upper: number): Node => {
  const next = { floor, lower: node.lower.slice(), upper: node.upper.slice(), basis };
  next.lower[j] = lower;
  next.upper[j] = upper;
  return next;
};

/** The LP of the rows: `unit` is one unit of an integer row after scaling. */
export type GridLp = DenseBoxLp & { unit: Float64Array };

/** The rows scaled to a largest coefficient of 1, those with no bound left out; "infeasible" when a row cannot be met whatever the amounts. */
export function denseRows(p: { rows: readonly GridRow[]; cost: readonly bigint[] }): GridLp | "infeasible" {
  const m = p.cost.length;
  const kept = p.rows.filter((row) => row.lower !== null || row.upper !== null);
  // A min above its max (bounds rounded inward on a row whole steps cannot meet), or a row of zeros its bounds exclude.
  const empty = (row: GridRow) => row.lower !== null && row.upper !== null && row.lower > row.upper;
  if (kept.some((row) => empty(row) || (row.coefficients.every((c) => c === 0n) && ((row.lower ?? 0n) > 0n || (row.upper ?? 0n) < 0n)))) return "infeasible";
  const rows = kept.filter((row) => row.coefficients.some((c) => c !== 0n));
  const k = rows.length;
  const a = new Float64Array(k * m);
  const unit = new Float64Array(k);
  const rowLower = new Float64Array(k);
  const rowUpper = new Float64Array(k);
  rows.forEach((row, i) => {
    const scale = Math.max(...row.coefficients.map((c) => Math.abs(Number(c))));
    row.coefficients.forEach((c, j) => (a[i * m + j] = Number(c) / scale));
    unit[i] = 1 / scale;
    rowLower[i] = row.lower === null ? -Infinity : Number(row.lower) / scale;
    rowUpper[i] = row.upper === null ? Infinity : Number(row.upper) / scale;
  });
  return { m, k, a, cost: Float64Array.from(p.cost, Number), rowLower, rowUpper, unit };
}

export interface Bound {
  value: number;
  margin: number;
  /** Per variable (columns, then slacks): the reduced cost the bound was made with. */
  reduced: Float64Array;
}

/**
 * min over the node's box of c·x − y·(A x − s): a lower bound on the cost of every point of the node
 * for any y. A dual that would multiply an infinite bound is taken as 0 (still a valid bound).
 */
export function lagrangian(lp: DenseBoxLp, node: Node, dual: Float64Array): Bound {
  const { m, k } = lp;
  const y = Float64Array.from(dual, (v, i) => ((v > 0 && lp.rowLower[i] === -Infinity) || (v < 0 && lp.rowUpper[i] === Infinity) ? 0 : v));
  const reduced = new Float64Array(m + k);
  let value = 0;
  let magnitude = 0;
  for (let j = 0; j < m; j++) {
    let d = lp.cost[j]!;
    let size = Math.abs(d);
    for (let i = 0; i < k; i++) {
      const term = y[i]! * lp.a[i * m + j]!;
      d -= term;
      size += Math.abs(term);
    }
    reduced[j] = d;
    value += d >= 0 ? d * node.lower[j]! : d * node.upper[j]!;
    magnitude += size * node.upper[j]!;
  }
  for (let i = 0; i < k; i++) {
    const v = y[i]!;
    reduced[m + i] = v;
    const term = v > 0 ? v * lp.rowLower[i]! : v < 0 ? v * lp.rowUpper[i]! : 0;
    value += term;
    magnitude += Math.abs(term);
  }
  return { value, margin: 1e-10 * magnitude + 1e-6, reduced };
}

/** Reduced-cost tightening: a point no dearer than the bound plus `room` moves column j at most room / |d_j| from its bound. */
export function tighten(lp: DenseBoxLp, node: Node, bound: Bound, room: number) {
  for (let j = 0; j < lp.m; j++) {
    const d = bound.reduced[j]!;
    if (d === 0) continue;
    const reach = Math.floor(room / Math.abs(d));
    if (d > 0) node.upper[j] = Math.min(node.upper[j]!, node.lower[j]! + reach);
    else node.lower[j] = Math.max(node.lower[j]!, node.upper[j]! - reach);
  }
}

/** Whether Σ u_i (A x − s)_i, which is 0 on every point, cannot be 0 anywhere in the node's box. */
export function unreachable(lp: DenseBoxLp, node: Node, dual: Float64Array): boolean {
  const { m, k } = lp;
  // Rounding noise on a row with an infinite bound would make the range infinite; without it u is still a combination.
  const largest = Math.max(...dual.map(Math.abs));
  const u = dual.map((v) => (Math.abs(v) <= 1e-11 * largest ? 0 : v));
  let low = 0;
  let high = 0;
  let magnitude = 0;
  for (let j = 0; j < m; j++) {
    let g = 0;
    for (let i = 0; i < k; i++) g += u[i]! * lp.a[i * m + j]!;
    const [a, b] = [g * node.lower[j]!, g * node.upper[j]!];
    low += Math.min(a, b);
    high += Math.max(a, b);
    magnitude += Math.abs(g) * node.upper[j]!;
  }
  for (let i = 0; i < k; i++) {
    const g = -u[i]!;
    if (g === 0) continue;
    const [a, b] = [g * lp.rowLower[i]!, g * lp.rowUpper[i]!];
    low += Math.min(a, b);
    high += Math.max(a, b);
    // An infinite side makes its sum infinite; only the finite ones carry rounding.
    magnitude += Math.max(...[a, b].filter(Number.isFinite).map(Math.abs), 0);
  }
  const margin = 1e-10 * magnitude + 1e-12;
  return low > margin || high < -margin;
}
