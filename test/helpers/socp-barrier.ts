/**
 * A second solver for the confidence optimum, written apart from src/optimize so it can prove it: a
 * log-barrier interior-point method with Newton steps (Boyd & Vandenberghe, ch. 11) on the same convex
 * problem, stated from the formula's limits directly. Linear inequalities take −log(slack); each chance
 * limit is the second-order cone t ≥ ‖y‖ with t = (mean − min) / z (or (max − mean) / z) and
 * y_j = sd_j × x_j / 100, barrier −log(t² − ‖y‖²). Σ x = 100 is kept by every Newton step (a KKT
 * system, dense elimination). It starts from a strictly feasible mix the caller knows, and stops when
 * the duality gap bound (barrier degree / τ) is below 1e-9 of the cost.
 */
import type { FormulaConstraints } from "../../src/domain/formula-math.ts";

export interface BarrierProblem {
  names: string[];
  prices: number[];
  /** Candidates held at 0 (left out of the variables). */
  held: boolean[];
  nutrients: Readonly<Record<string, number>>[];
  sds: Readonly<Record<string, Readonly<Record<string, number>>>>;
  constraints: FormulaConstraints;
  /** The standard normal quantile of the confidence level (0: the LP). */
  z: number;
}

interface Linear {
  a: Float64Array;
  b: number;
}
interface Cone {
  /** t = α·x + β */
  alpha: Float64Array;
  beta: number;
  /** y_i = σ_i x_i (σ_i 0 where it does not vary) */
  sigma: Float64Array;
}

const value = (n: Readonly<Record<string, number>>, key: string) => n[key] ?? 0;

/** The problem over the free candidates: linear rows a·x ≥ b and cones. */
function statement(p: BarrierProblem) {
  const free = p.names.flatMap((_, j) => (p.held[j] ? [] : [j]));
  const n = free.length;
  const linear: Linear[] = [];
  const cones: Cone[] = [];
  const row = (f: (j: number) => number) => Float64Array.from(free, f);
  free.forEach((_, k) => {
    const a = new Float64Array(n);
    a[k] = 1;
    linear.push({ a, b: 0 });
  });
  for (const c of p.constraints.nutrients) {
    const mean = row((j) => value(p.nutrients[j]!, c.key) / 100);
    const sigma = row((j) => (p.nutrients[j]![c.key] === undefined ? 0 : (p.sds[p.names[j]!]?.[c.key] ?? 0) / 100));
    const varies = p.z > 0 && sigma.some((s) => s > 0);
    if (c.min !== null) {
      if (varies) cones.push({ alpha: mean.map((m) => m / p.z), beta: -c.min / p.z, sigma });
      else linear.push({ a: mean, b: c.min });
    }
    if (c.max !== null) {
      if (varies) cones.push({ alpha: mean.map((m) => -m / p.z), beta: c.max / p.z, sigma });
      else linear.push({ a: mean.map((m) => -m), b: -c.max });
    }
  }
  for (const c of p.constraints.ingredients) {
    const k = free.findIndex((j) => p.names[j] === c.name);
    const a = new Float64Array(n);
    if (k >= 0) a[k] = 1;
    if (c.min !== null) linear.push({ a, b: c.min });
    if (c.max !== null) linear.push({ a: a.map((v) => -v), b: -c.max });
  }
  for (const r of p.constraints.ratios ?? []) {
    const form = (limit: number) => row((j) => value(p.nutrients[j]!, r.numerator) - limit * value(p.nutrients[j]!, r.denominator));
    if (r.min !== null) linear.push({ a: form(r.min), b: 0 });
    if (r.max !== null) linear.push({ a: form(r.max).map((v) => -v), b: 0 });
  }
  return { free, n, linear, cones, cost: row((j) => p.prices[j]! / 100) };
}

const dot = (a: ArrayLike<number>, x: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * x[i]!;
  return s;
};

/**
 * The optimum cost per ton and mix (percents per candidate, held ones 0), from `start`, a mix (per
 * candidate) meeting every limit strictly; throws when `start` does not.
 * @example barrierOptimum(problem, saved).cost // 412.3381
 */
export function barrierOptimum(p: BarrierProblem, start: readonly number[]): { cost: number; x: number[] } {
  const { free, n, linear, cones, cost } = statement(p);
  let x = Float64Array.from(free, (j) => start[j]!);
  const slacks = (v: Float64Array) => linear.map((l) => dot(l.a, v) - l.b);
  const coneParts = (v: Float64Array) => cones.map((c) => {
    const t = dot(c.alpha, v) + c.beta;
    const y = v.map((xi, i) => c.sigma[i]! * xi);
    return { t, y, w: t * t - dot(y, y) };
  });
  const inside = (v: Float64Array) => slacks(v).every((s) => s > 0) && coneParts(v).every((c) => c.t > 0 && c.w > 0);
  if (!inside(x)) throw new Error("barrierOptimum: the start is not strictly feasible");
  const barrier = (v: Float64Array) => -slacks(v).reduce((s, v2) => s + Math.log(v2), 0) - coneParts(v).reduce((s, c) => s + Math.log(c.w), 0);
  const degree = linear.length + 2 * cones.length;
  let tau = 1;
  for (let outer = 0; outer < 200; outer++) {
    for (let inner = 0; inner < 100; inner++) {
      const g = cost.map((c) => tau * c);
      const h = Array.from({ length: n }, () => new Float64Array(n));
      for (const [k, s] of slacks(x).entries()) {
        const a = linear[k]!.a;
        for (let i = 0; i < n; i++) {
          if (a[i] === 0) continue;
          g[i] = g[i]! - a[i]! / s;
          for (let j = 0; j < n; j++) h[i]![j] = h[i]![j]! + (a[i]! * a[j]!) / (s * s);
        }
      }
      coneParts(x).forEach(({ t, y, w }, k) => {
        const c = cones[k]!;
        // ∇w = 2tα − 2σ∘y; ∇²w = 2ααᵀ − 2 diag(σ²); ∇²(−log w) = ∇w∇wᵀ / w² − ∇²w / w.
        const dw = c.alpha.map((a, i) => 2 * t * a - 2 * c.sigma[i]! * y[i]!);
        for (let i = 0; i < n; i++) {
          g[i] = g[i]! - dw[i]! / w;
          for (let j = 0; j < n; j++) h[i]![j] = h[i]![j]! + (dw[i]! * dw[j]!) / (w * w) - (2 * c.alpha[i]! * c.alpha[j]!) / w;
          h[i]![i] = h[i]![i]! + (2 * c.sigma[i]! * c.sigma[i]!) / w;
        }
      });
      // KKT: [H 1; 1ᵀ 0] [dx; ν] = [−g; 0] keeps Σ x.
      const kkt = h.map((r, i) => [...r, 1, -g[i]!]);
      kkt.push([...new Array(n).fill(1), 0, 0]);
      const step = gauss(kkt);
      const dx = step.slice(0, n);
      const decrement = -dot(g, dx);
      if (decrement / 2 < 1e-12) break;
      const f = (v: Float64Array) => tau * dot(cost, v) + barrier(v);
      const f0 = f(x);
      let size = 1;
      for (let tries = 0; tries < 80; tries++, size /= 2) {
        const next = x.map((xi, i) => xi + size * dx[i]!);
        if (inside(next) && f(next) <= f0 - 0.25 * size * decrement) {
          x = next;
          break;
        }
      }
    }
    const objective = dot(cost, x);
    if (degree / tau <= 1e-9 * Math.max(1, Math.abs(objective))) break;
    tau *= 8;
  }
  const full = new Array<number>(p.names.length).fill(0);
  free.forEach((j, k) => (full[j] = x[k]!));
  return { cost: dot(cost, x), x: full };
}

/** Solves the augmented system [A | b] by elimination with partial pivoting. */
function gauss(rows: number[][]): number[] {
  const m = rows.length;
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let i = col + 1; i < m; i++) if (Math.abs(rows[i]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = i;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const p = rows[col]!;
    for (let i = col + 1; i < m; i++) {
      const f = rows[i]![col]! / p[col]!;
      if (f === 0) continue;
      for (let k = col; k <= m; k++) rows[i]![k] = rows[i]![k]! - f * p[k]!;
    }
  }
  const x = new Array<number>(m).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    let s = rows[i]![m]!;
    for (let k = i + 1; k < m; k++) s -= rows[i]![k]! * x[k]!;
    x[i] = s / rows[i]![i]!;
  }
  return x;
}
