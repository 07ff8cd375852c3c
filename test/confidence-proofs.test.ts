/**
 * Proofs, not examples, that optimizing to a confidence level is right (docs/decisions.md#optimizing-to-a-confidence-level):
 * on seeded random formulas with sds, every returned mix is checked against the definition of a chance
 * limit, its cost against a second solver of the same convex problem written apart (a log-barrier
 * interior-point method, itself checked against GLPK where the problem is an LP and against the
 * cutting planes everywhere), confidence 0.5 against the least-cost answer, and the odds by drawing
 * 100,000 lots.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { chanceLimits } from "../src/optimize/chance-model.ts";
import { solveChance } from "../src/optimize/chance-solve.ts";
import { chanceSetting, confidenceTask } from "../src/optimize/chance-task.ts";
import { confidenceCurveTask } from "../src/optimize/confidence-curve.ts";
import { buildProblem } from "../src/optimize/model.ts";
import { optimizeTask } from "../src/optimize/optimize-task.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import type { ConfidenceResult } from "../src/schemas/optimize.ts";
import { barrierProblem, confidenceInput, meanSd, phi, quantile, randomChanceProblem, type ChanceProblem } from "./helpers/chance-problems.ts";
import { exactBreaks, glpkOptimum } from "./helpers/lp-problems.ts";
import { seeded } from "./helpers/random.ts";
import { barrierOptimum } from "./helpers/socp-barrier.ts";

const RANDOM_PROBLEMS = 40;
const LEVELS = [0.6, 0.9, 0.95, 0.99];
const WITHIN = 1e-6;
const COST = 1e-4;

let highs: Highs;
const problems: ChanceProblem[] = [];

beforeAll(async () => {
  highs = await solverRuntime();
  for (let seed = 1; seed <= RANDOM_PROBLEMS; seed++) problems.push(randomChanceProblem(3300 + seed));
});

/** The returned mix as percents per candidate. */
const percentsOf = (p: ChanceProblem, r: ConfidenceResult) => p.candidates.map((c) => r.optimized!.ingredients.find((i) => i.name === c.name)?.percent ?? 0);

/** The unrounded cutting-plane optimum's cost per ton. */
function cuttingPlaneCost(p: ChanceProblem, confidence: number): number | null {
  const setting = chanceSetting(confidenceInput(p, confidence), confidence);
  const solved = solveChance(highs, setting.problem, chanceLimits(setting.problem.candidates, p.constraints, p.sds), setting.z);
  return solved.status === "optimal" ? solved.solution.objective : null;
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(1, Math.abs(b));

describe("the independent solver", () => {
  test("the barrier method equals GLPK where the problem is an LP (confidence 0.5), on every seeded problem", async () => {
    for (const p of problems) {
      const lp = await glpkOptimum(buildProblem(p.candidates, p.constraints));
      expect(lp, `seed ${p.seed}`).not.toBeNull();
      expect(relative(barrierOptimum(barrierProblem(p, 0), p.inner).cost, lp!), `seed ${p.seed}`).toBeLessThan(1e-7);
    }
  });

  test("the cutting planes and the barrier method agree within 1e-4 of the cost at every level, on every seeded problem", () => {
    let worst = 0;
    for (const p of problems) {
      for (const confidence of LEVELS) {
        const barrier = barrierOptimum(barrierProblem(p, quantile(confidence)), p.inner).cost;
        const cut = cuttingPlaneCost(p, confidence);
        expect(cut, `seed ${p.seed} at ${confidence}`).not.toBeNull();
        worst = Math.max(worst, relative(cut!, barrier));
        expect(relative(cut!, barrier), `seed ${p.seed} at ${confidence}`).toBeLessThan(COST);
      }
    }
    // Both are far closer than the contract needs: a regression in either shows here first.
    expect(worst).toBeLessThan(1e-6);
  });
});

test("a formula of the bench's size (60 candidates × 30 nutrient limits) at 0.95: the cutting planes and the barrier method agree within 1e-4", () => {
  const p = randomChanceProblem(6030, { candidates: 60, nutrients: 30 });
  const barrier = barrierOptimum(barrierProblem(p, quantile(0.95)), p.inner).cost;
  expect(relative(cuttingPlaneCost(p, 0.95)!, barrier)).toBeLessThan(COST);
  const r = confidenceTask(highs, confidenceInput(p, 0.95)) as ConfidenceResult;
  expect(relative(r.optimized!.costPerTon, barrier)).toBeLessThan(COST);
});

describe("the returned mix", () => {
  test("meets every chance limit within 1e-6 (mean − z·sd ≥ min, mean + z·sd ≤ max, each probability ≥ P − 1e-6) and every linear limit exactly", () => {
    for (const p of problems) {
      for (const confidence of LEVELS) {
        const r = confidenceTask(highs, confidenceInput(p, confidence)) as ConfidenceResult;
        expect(r.status, `seed ${p.seed} at ${confidence}`).toBe("optimal");
        const x = percentsOf(p, r);
        expect(x.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 9);
        const z = quantile(confidence);
        for (const { key, min, max } of p.constraints.nutrients) {
          const { mean, sd } = meanSd(p, key, x);
          const label = `seed ${p.seed} at ${confidence}: ${key}`;
          if (min !== null) {
            expect(mean - z * sd - min, label).toBeGreaterThanOrEqual(-WITHIN);
            expect(sd === 0 ? 1 : phi((mean - min) / sd), label).toBeGreaterThanOrEqual(confidence - WITHIN);
          }
          if (max !== null) {
            expect(max - mean - z * sd, label).toBeGreaterThanOrEqual(-WITHIN);
            expect(sd === 0 ? 1 : phi((max - mean) / sd), label).toBeGreaterThanOrEqual(confidence - WITHIN);
          }
        }
        expect(exactBreaks(buildProblem(p.candidates, p.constraints), x), `seed ${p.seed}`).toEqual([]);
      }
    }
  });

  test("costs within 1e-4 of the barrier optimum (never less, apart from the cent), the premium and the odds as shown", () => {
    for (const p of problems) {
      for (const confidence of LEVELS) {
        const r = confidenceTask(highs, confidenceInput(p, confidence)) as ConfidenceResult;
        const barrier = barrierOptimum(barrierProblem(p, quantile(confidence)), p.inner).cost;
        const label = `seed ${p.seed} at ${confidence}`;
        expect(r.optimized!.costPerTon, label).toBeGreaterThanOrEqual(barrier - 0.005);
        expect(relative(r.optimized!.costPerTon, barrier), label).toBeLessThan(COST);
        expect(r.confidence).toBe(confidence);
        expect(r.premium).toBe(Math.round((r.optimized!.costPerTon - r.deterministicCost!) * 100) / 100);
        expect(r.premium!).toBeGreaterThanOrEqual(0);
        const x = percentsOf(p, r);
        for (const { key, min, max } of p.constraints.nutrients) {
          const { mean, sd } = meanSd(p, key, x);
          const odds = r.optimized!.odds[key]!;
          expect(odds.mean).toBeCloseTo(mean, 4);
          expect(odds.sd).toBeCloseTo(sd, 4);
          expect(odds.probabilityMin).toBe(min === null ? null : Math.round((sd === 0 ? (mean >= min ? 1 : 0) : phi((mean - min) / sd)) * 1e4) / 1e4);
          expect(odds.probabilityMax).toBe(max === null ? null : Math.round((sd === 0 ? (mean <= max ? 1 : 0) : phi((max - mean) / sd)) * 1e4) / 1e4);
          expect(odds.margin).toBeCloseTo(Math.min(min === null ? Infinity : mean - min, max === null ? Infinity : max - mean), 4);
        }
        // Above 0.5 the optimum sits on curved limits: no price ranges, no entering prices, no shadow price ranges.
        expect(r.ranging).toBeUndefined();
        expect(r.excluded.every((e) => !("entersBelow" in e))).toBe(true);
        expect(r.shadowPrices.nutrients.every((s) => !("validFrom" in s) && !("validTo" in s))).toBe(true);
      }
    }
  });
});

describe("shadow prices above 0.5", () => {
  test("each nutrient limit's shadow price is the slope of the confidence optimum's cost as that limit moves (both sides of a small step agreeing)", () => {
    let compared = 0;
    for (const p of problems.slice(0, 30)) {
      const r = confidenceTask(highs, confidenceInput(p, 0.95)) as ConfidenceResult;
      for (const s of r.shadowPrices.nutrients) {
        const h = 1e-3 * Math.max(1, Math.abs(s.limit));
        const moved = (d: number) => {
          const nutrients = p.constraints.nutrients.map((c) => (c.key === s.key ? { ...c, [s.bound]: s.limit + d } : c));
          return cuttingPlaneCost({ ...p, constraints: { ...p.constraints, nutrients } }, 0.95);
        };
        const [below, at, above] = [moved(-h), moved(0), moved(h)];
        if (below === null || at === null || above === null) continue;
        const left = (at - below) / h;
        const right = (above - at) / h;
        // A kink (another limit starts or stops binding within the step): no single slope to compare.
        if (Math.abs(left - right) > 0.02 * Math.max(1, Math.abs(left))) continue;
        expect(Math.abs(s.shadowPrice - (left + right) / 2), `seed ${p.seed} ${s.key} ${s.bound}`).toBeLessThan(0.01 * Math.max(1, Math.abs(s.shadowPrice)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe("confidence 0.5", () => {
  test("is the least-cost answer itself, with the odds, a premium of 0 and a blanket margin of nothing", () => {
    for (const p of problems) {
      const plain = optimizeTask(highs, confidenceInput(p, null));
      const r = confidenceTask(highs, confidenceInput(p, 0.5)) as ConfidenceResult;
      const { confidence, deterministicCost, premium, blanketMarginCost, optimized, ...rest } = r;
      const { odds, ...mix } = optimized!;
      expect({ ...rest, optimized: mix } as unknown).toEqual(plain);
      expect(confidence).toBe(0.5);
      expect(deterministicCost).toBe(plain.optimized!.costPerTon);
      expect(premium).toBe(0);
      expect(blanketMarginCost).toBe(plain.optimized!.costPerTon);
      expect(Object.keys(odds).sort()).toEqual(p.constraints.nutrients.map((c) => c.key).sort());
    }
  });

  test("confidence null is the least-cost answer without odds", () => {
    const p = problems[0]!;
    expect(confidenceTask(highs, confidenceInput(p, null))).toEqual(optimizeTask(highs, confidenceInput(p, null)));
  });
});

describe("the blanket margin", () => {
  test("costs what the least-cost solve costs with every limit padded by z × the sd in the 0.5 mix (GLPK), null when that is infeasible", async () => {
    for (const p of problems.slice(0, 20)) {
      const r = confidenceTask(highs, confidenceInput(p, 0.95)) as ConfidenceResult;
      const half = confidenceTask(highs, confidenceInput(p, 0.5)) as ConfidenceResult;
      const x = percentsOf(p, half);
      const z = quantile(0.95);
      const nutrients = p.constraints.nutrients.map(({ key, min, max }) => {
        const { sd } = meanSd(p, key, x);
        return { key, min: min === null ? null : min + z * sd, max: max === null ? null : max - z * sd };
      });
      const crossed = nutrients.some((c) => c.min !== null && c.max !== null && c.min > c.max);
      const padded = crossed ? null : await glpkOptimum(buildProblem(p.candidates, { ...p.constraints, nutrients }));
      if (padded === null) {
        expect(r.blanketMarginCost, `seed ${p.seed}`).toBeNull();
        continue;
      }
      // The shown figure is the rounded mix's: at or above the LP optimum, within a few cents of it.
      expect(r.blanketMarginCost!, `seed ${p.seed}`).toBeGreaterThanOrEqual(padded - 0.005);
      expect(relative(r.blanketMarginCost!, padded), `seed ${p.seed}`).toBeLessThan(COST);
    }
  });
});

describe("the odds by drawing lots", () => {
  test("100,000 seeded draws meet each binding limit with frequency within ±0.5 % of P", () => {
    const draw = normalDraws(seeded(20261126));
    let checked = 0;
    for (const p of problems.slice(0, 12)) {
      for (const confidence of [0.9, 0.95]) {
        const r = confidenceTask(highs, confidenceInput(p, confidence)) as ConfidenceResult;
        const x = percentsOf(p, r);
        const z = quantile(confidence);
        // Binding: the mix meets the limit with no more room than rounding leaves (probability below P + 0.001).
        const binding = p.constraints.nutrients.flatMap(({ key, min, max }) => {
          const { mean, sd } = meanSd(p, key, x);
          if (sd === 0) return [];
          return [
            ...(min !== null && phi((mean - min) / sd) < confidence + 0.001 ? [{ key, side: "min" as const, limit: min }] : []),
            ...(max !== null && phi((max - mean) / sd) < confidence + 0.001 ? [{ key, side: "max" as const, limit: max }] : []),
          ];
        });
        for (const b of binding) {
          let met = 0;
          for (let k = 0; k < 100_000; k++) {
            let level = 0;
            p.candidates.forEach((c, j) => {
              if (x[j] === 0 || c.nutrients[b.key] === undefined) return;
              level += ((c.nutrients[b.key]! + (p.sds[c.name]?.[b.key] ?? 0) * draw()) * x[j]!) / 100;
            });
            if (b.side === "min" ? level >= b.limit : level <= b.limit) met++;
          }
          expect(Math.abs(met / 100_000 - confidence), `seed ${p.seed} ${b.key} ${b.side} at ${confidence} (z ${z.toFixed(4)})`).toBeLessThanOrEqual(0.005);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe("the confidence curve", () => {
  test("each point is the optimum at its level (within 1e-4 of the barrier optimum, its mix meeting every chance limit), rising with the level", () => {
    for (const p of problems.slice(0, 15)) {
      const { from, to, points } = { from: 0.5, to: 0.99, points: 6 };
      const curve = confidenceCurveTask(highs, { ...confidenceInput(p, null), from, to, points });
      expect(curve.points.map((q) => q.confidence)).toEqual([0.5, 0.598, 0.696, 0.794, 0.892, 0.99]);
      curve.points.forEach((q, k) => {
        const level = k === points - 1 ? to : from + ((to - from) * k) / (points - 1);
        const label = `seed ${p.seed} at ${level}`;
        const z = level === 0.5 ? 0 : quantile(level);
        const barrier = barrierOptimum(barrierProblem(p, z), p.inner).cost;
        expect(q.costPerTon!, label).toBeGreaterThanOrEqual(barrier - 0.005);
        expect(relative(q.costPerTon!, barrier), label).toBeLessThan(COST);
        const x = p.candidates.map((c) => q.ingredients!.find((i) => i.name === c.name)?.percent ?? 0);
        expect(x.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 9);
        for (const { key, min, max } of p.constraints.nutrients) {
          const { mean, sd } = meanSd(p, key, x);
          if (min !== null) expect(mean - z * sd - min, label).toBeGreaterThanOrEqual(-WITHIN);
          if (max !== null) expect(max - mean - z * sd, label).toBeGreaterThanOrEqual(-WITHIN);
        }
        if (k > 0) expect(q.costPerTon! + 0.005).toBeGreaterThanOrEqual(curve.points[k - 1]!.costPerTon!);
      });
      // At 0.5 the curve is the least-cost answer.
      expect(curve.points[0]!.costPerTon).toBe(optimizeTask(highs, confidenceInput(p, null)).optimized!.costPerTon);
    }
  });

  test("a level no mix reaches is null", () => {
    // One ingredient, a minimum just under its value: only P = 0.5 can meet it.
    const p: ChanceProblem = { seed: 0, candidates: [{ name: "Only", price: 100, held: false, nutrients: { CP: 10 } }], constraints: { nutrients: [{ key: "CP", min: 9.99, max: null }], ingredients: [], ratios: [] }, sds: { Only: { CP: 1 } }, inner: [100] };
    const curve = confidenceCurveTask(highs, { ...confidenceInput(p, null), from: 0.5, to: 0.9, points: 2 });
    expect(curve.points).toEqual([{ confidence: 0.5, costPerTon: 100, ingredients: [{ name: "Only", percent: 100 }] }, { confidence: 0.9, costPerTon: null, ingredients: null }]);
    const r = confidenceTask(highs, confidenceInput(p, 0.9)) as ConfidenceResult;
    expect(r.status).toBe("infeasible");
    expect(r.optimized).toBeNull();
    expect(r.deterministicCost).toBe(100);
    expect(r.premium).toBeNull();
  });
});

/** Standard normal draws (Box–Muller) from a seeded uniform generator. */
function normalDraws(uniform: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}
