/**
 * Confidence problems for the proofs (docs/decisions.md#optimizing-to-a-confidence-level): seeded random
 * formulas with sds whose limits hold strictly at a known mix for every confidence up to 0.99 (so the
 * barrier solver has a start and every level has an optimum), and the normal distribution computed
 * apart from src/optimize/normal.ts (Simpson's rule on the density, bisection for the quantile).
 */
import type { FormulaConstraints } from "../../src/domain/formula-math.ts";
import type { Sds } from "../../src/optimize/chance-model.ts";
import type { Candidate } from "../../src/optimize/model.ts";
import type { ConfidenceInput } from "../../src/optimize/chance-task.ts";
import type { IngredientDetail } from "../../src/store/ingredients.ts";
import type { BarrierProblem } from "./socp-barrier.ts";
import { seeded } from "./random.ts";

export interface ChanceProblem {
  seed: number;
  candidates: Candidate[];
  constraints: FormulaConstraints;
  sds: Sds;
  /** A mix (percents per candidate) meeting every limit strictly at every confidence up to 0.99. */
  inner: number[];
}

/** The z of the highest confidence the limits are set for (0.99). */
const Z_SET = 2.3263478740408408;

/**
 * @example randomChanceProblem(7).candidates.length // 3..14
 */
export function randomChanceProblem(seed: number, size: { candidates?: number; nutrients?: number } = {}): ChanceProblem {
  const rnd = seeded(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const n = size.candidates ?? int(3, 14);
  const keys = Array.from({ length: size.nutrients ?? int(2, 6) }, (_, k) => `N${k}`);
  const candidates: Candidate[] = Array.from({ length: n }, (_, j) => ({
    name: `I${j}`,
    price: Math.round((20 + rnd() * 1500) * 100) / 100,
    held: j > 0 && rnd() < 0.1,
    nutrients: Object.fromEntries(keys.flatMap((k) => (rnd() < 0.15 ? [] : [[k, Math.round(rnd() * 5000) / 100]]))),
  }));
  const sds: Record<string, Record<string, number>> = Object.fromEntries(
    candidates.map((c) => [c.name, Object.fromEntries(Object.entries(c.nutrients).flatMap(([k, v]) => (rnd() < 0.65 ? [[k, Math.round(v * (0.01 + rnd() * 0.14) * 1000) / 1000]] : [])))]),
  );
  // Every free candidate in the inner mix, so it is interior to x ≥ 0 too.
  const weights = candidates.map((c) => (c.held ? 0 : 0.2 + rnd()));
  const total = weights.reduce((a, b) => a + b, 0);
  const inner = weights.map((w) => (w / total) * 100);
  const level = (key: string) => candidates.reduce((s, c, j) => s + ((c.nutrients[key] ?? 0) * inner[j]!) / 100, 0);
  const sdAt = (key: string) => Math.sqrt(candidates.reduce((s, c, j) => s + (c.nutrients[key] === undefined ? 0 : (((sds[c.name]![key] ?? 0) * inner[j]!) / 100) ** 2), 0));
  const room = () => 0.002 + rnd() * 0.08;
  const nutrients = keys.flatMap((key) => {
    const v = level(key);
    const pad = Z_SET * sdAt(key) * 1.001 + 1e-4;
    const min = rnd() < 0.8 ? round4(v - pad - room() * v, "down") : null;
    const max = rnd() < 0.45 ? round4(v + pad + room() * v, "up") : null;
    return min === null && max === null ? [] : [{ key, min, max }];
  });
  const ingredients = candidates.flatMap((c, j) => {
    if (c.held || rnd() > 0.35) return [];
    const min = rnd() < 0.4 ? round4(inner[j]! * (1 - 0.05 - rnd() * 0.5), "down") : null;
    const max = rnd() < 0.7 ? round4(inner[j]! * (1.05 + rnd() * 0.8), "up") : null;
    return min === null && max === null ? [] : [{ name: c.name, min, max }];
  });
  const ratios = keys.flatMap((numerator, k) => {
    const denominator = keys[(k + 1) % keys.length]!;
    const den = level(denominator);
    if (rnd() > 0.3 || den <= 0.01 || numerator === denominator) return [];
    const ratio = level(numerator) / den;
    const min = rnd() < 0.6 ? round4(ratio * (0.98 - rnd() * 0.2), "down") : null;
    const max = min === null || rnd() < 0.4 ? round4(ratio * (1.02 + rnd() * 0.2), "up") : null;
    return [{ numerator, denominator, min, max }];
  });
  return { seed, candidates, constraints: { nutrients, ingredients, ratios }, sds, inner };
}

/** Limits as people write them: 4 decimals, outward. */
const round4 = (v: number, way: "up" | "down") => (way === "up" ? Math.ceil(v * 1e4) : Math.floor(v * 1e4)) / 1e4;

/** The problem as the optimize task takes it (the inner mix as the saved composition). */
export function confidenceInput(p: ChanceProblem, confidence: number | null): ConfidenceInput {
  const ingredients: IngredientDetail[] = p.candidates.map((c) => ({ name: c.name, category: "Test", price: c.price, inStock: !c.held, co2e: null, nutrients: { ...c.nutrients }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" }));
  return {
    formula: { id: `chance-${p.seed}`, name: `Chance ${p.seed}`, batchSize: 1000, ingredients: p.candidates.map((c, j) => ({ name: c.name, percent: p.inner[j]!, price: c.price })), constraints: p.constraints },
    ingredients,
    include: [],
    prices: [],
    includeOutOfStock: false,
    maxCo2e: null,
    confidence,
    sds: p.sds,
  };
}

/** The problem as the barrier solver takes it. */
export function barrierProblem(p: ChanceProblem, z: number): BarrierProblem {
  return { names: p.candidates.map((c) => c.name), prices: p.candidates.map((c) => c.price), held: p.candidates.map((c) => c.held), nutrients: p.candidates.map((c) => c.nutrients), sds: p.sds, constraints: p.constraints, z };
}

/**
 * Φ by Simpson's rule on the density from 0 (4000 panels: error far below 1e-12 for |x| ≤ 8).
 * @example phi(1.959963984540054) // 0.975
 */
export function phi(x: number): number {
  const panels = 4000;
  const h = Math.abs(x) / panels;
  const density = (t: number) => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI);
  let sum = density(0) + density(Math.abs(x));
  for (let i = 1; i < panels; i++) sum += (i % 2 === 1 ? 4 : 2) * density(i * h);
  const half = (sum * h) / 3;
  return x >= 0 ? 0.5 + half : 0.5 - half;
}

/**
 * z with Φ(z) = p, by bisection on phi.
 * @example quantile(0.95) // 1.6448536...
 */
export function quantile(p: number): number {
  let lo = -8;
  let hi = 8;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (phi(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Mean and sd of a nutrient in a mix (percents per candidate), from the definition. */
export function meanSd(p: ChanceProblem, key: string, percents: readonly number[]): { mean: number; sd: number } {
  let mean = 0;
  let variance = 0;
  p.candidates.forEach((c, j) => {
    if (c.nutrients[key] === undefined) return;
    mean += (c.nutrients[key]! * percents[j]!) / 100;
    variance += (((p.sds[c.name]?.[key] ?? 0) * percents[j]!) / 100) ** 2;
  });
  return { mean, sd: Math.sqrt(variance) };
}
