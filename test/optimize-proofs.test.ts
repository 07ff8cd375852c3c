/**
 * Proofs, not examples, that the least-cost optimizer is right (docs/decisions.md#least-cost-formulation):
 * on the demo formulas and on seeded random formulas, every figure is checked against what it claims,
 * by re-solving the changed problem, by LP duality, and against a second, independent solver (GLPK).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { seedDemo } from "../src/demo/seed.ts";
import { BASIS, solveLp } from "../src/optimize/lp.ts";
import { activity, buildProblem, costPerTon, inMix, ratioCoefficients, type Candidate, type LeastCostProblem, type Row } from "../src/optimize/model.ts";
import { candidatesOf, NO_OPTIONS, optimizeFormula } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { sensitivityOf } from "../src/optimize/sensitivity.ts";
import { lpOf, solveLeastCost } from "../src/optimize/solve.ts";
import { round, type FormulaConstraints } from "../src/domain/formula-math.ts";
import { openDatabase } from "../src/store/db.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { findIngredient, listIngredientDetails } from "../src/store/ingredients.ts";
import { everyIngredient } from "../src/optimize/candidates.ts";
import { exactBreaks, glpkOptimum, randomFormula, type RandomFormula } from "./helpers/lp-problems.ts";
import { roundedMix } from "../src/optimize/rounding.ts";
import { tempDir } from "./helpers/harness.ts";

const RANDOM_PROBLEMS = 220;
const FEASIBLE = 1e-6;

let highs: Highs;
const named: { label: string; problem: LeastCostProblem; saved: number[]; constraints: FormulaConstraints }[] = [];

beforeAll(async () => {
  highs = await solverRuntime();
  const tmp = tempDir();
  const db = openDatabase(`${tmp.dir}/demo.db`, { create: true });
  seedDemo(db, "2026-11-23T00:00:00.000Z");
  for (const f of listFormulaDetails(db, 1)) {
    const candidates = candidatesOf(f, (name) => findIngredient(db, 1, name), NO_OPTIONS);
    const saved = candidates.map((c) => f.ingredients.filter((r) => r.name === c.name).reduce((s, r) => s + r.percent, 0));
    named.push({ label: `demo ${f.id}`, problem: buildProblem(candidates, f.constraints), saved, constraints: f.constraints });
  }
  db.close();
  tmp.cleanup();
  for (let seed = 1; seed <= RANDOM_PROBLEMS; seed++) {
    const f: RandomFormula = randomFormula(seed);
    named.push({ label: `random seed ${seed}`, problem: buildProblem(f.candidates, f.constraints), saved: f.saved, constraints: f.constraints });
  }
});

/** The optimum per ton of a variant of the problem, or null when it has no feasible mix. */
function optimum(problem: LeastCostProblem, prices?: number[]): number | null {
  const s = solveLp(highs, lpOf(problem, prices), { ranging: false });
  return s.status === "optimal" ? s.objective : null;
}
const solved = (problem: LeastCostProblem) => {
  const outcome = solveLeastCost(highs, problem);
  if (outcome.status !== "optimal") throw new Error("expected an optimum");
  return outcome;
};
const withRow = (problem: LeastCostProblem, r: number, row: Partial<Row>): LeastCostProblem => ({ ...problem, rows: problem.rows.map((old, i) => (i === r ? { ...old, ...row } : old)) });
/** The problem with limit row r's active bound moved to v (both bounds of a fixed level). */
function movedLimit(problem: LeastCostProblem, r: number, bound: "min" | "max", v: number): LeastCostProblem {
  const row = problem.rows[r]!;
  const limit = row.limit!;
  if (limit.kind === "ratio") return withRow(problem, r, { coefficients: ratioCoefficients(problem.candidates, limit.numerator, limit.denominator, v) });
  if (row.lower === row.upper) return withRow(problem, r, { lower: v, upper: v });
  return withRow(problem, r, bound === "min" ? { lower: v } : { upper: v });
}
const tolerance = (...scale: number[]) => 1e-7 * Math.max(1, ...scale.map(Math.abs));

describe("every optimum", () => {
  test("meets every limit within 1e-6, holds out-of-stock candidates at 0, and costs no more than the saved mix", () => {
    let optimal = 0;
    for (const { label, problem, saved } of named) {
      const { solution } = solved(problem);
      optimal++;
      const x = solution.x;
      problem.candidates.forEach((c, j) => {
        expect({ label, j, x: x[j]! >= -FEASIBLE }).toEqual({ label, j, x: true });
        if (c.held) expect({ label, j, held: Math.abs(x[j]!) <= FEASIBLE }).toEqual({ label, j, held: true });
      });
      problem.rows.forEach((row, r) => {
        const a = activity(row.coefficients, x);
        expect({ label, r, met: a >= row.lower - FEASIBLE && a <= row.upper + FEASIBLE }).toEqual({ label, r, met: true });
      });
      // The saved mix meets its limits by construction for the random formulas; the demo's are checked by test/demo.test.ts.
      const savedMeets = problem.rows.every((row) => {
        const a = activity(row.coefficients, saved);
        return a >= row.lower - FEASIBLE && a <= row.upper + FEASIBLE;
      });
      if (savedMeets) expect({ label, noWorse: solution.objective <= costPerTon(problem.candidates, saved) + tolerance(solution.objective) }).toEqual({ label, noWorse: true });
    }
    expect(optimal).toBe(named.length);
  });

  test("cost = dual objective, with dual feasibility checked from the data (so the optimum is proven, not trusted)", () => {
    for (const { label, problem } of named) {
      const { solution } = solved(problem);
      const y = solution.rowDual;
      let dualObjective = 0;
      problem.rows.forEach((row, r) => {
        if (Math.abs(y[r]!) <= 1e-12) return;
        // A positive dual must sit on its lower bound, a negative one on its upper bound.
        const bound = y[r]! > 0 ? row.lower : row.upper;
        expect({ label, r, finite: Number.isFinite(bound) }).toEqual({ label, r, finite: true });
        expect({ label, r, tight: Math.abs(activity(row.coefficients, solution.x) - bound) <= FEASIBLE * Math.max(1, Math.abs(bound)) }).toEqual({ label, r, tight: true });
        dualObjective += y[r]! * bound;
      });
      expect({ label, gap: Math.abs(dualObjective - solution.objective) <= tolerance(solution.objective) }).toEqual({ label, gap: true });
      problem.candidates.forEach((c, j) => {
        if (c.held) return;
        const reduced = c.price / 100 - problem.rows.reduce((s, row, r) => s + row.coefficients[j]! * y[r]!, 0);
        expect({ label, j, dualFeasible: reduced >= -tolerance(c.price) }).toEqual({ label, j, dualFeasible: true });
        if (inMix(solution.x, j)) expect({ label, j, complementary: Math.abs(reduced) <= tolerance(c.price) }).toEqual({ label, j, complementary: true });
      });
    }
  });

  test("the optimum equals GLPK's (an independent solver) on the demo formulas and every random formula", async () => {
    for (const { label, problem } of named) {
      const ours = solved(problem).solution.objective;
      const theirs = await glpkOptimum(problem);
      expect({ label, feasible: theirs !== null }).toEqual({ label, feasible: true });
      expect({ label, diff: Math.abs(ours - theirs!) <= 1e-6 * Math.max(1, Math.abs(ours)) }).toEqual({ label, diff: true });
    }
    expect(named.filter((n) => n.label.startsWith("random")).length).toBeGreaterThanOrEqual(200);
  });

  test("the same problem gives the same answer, and solving frees its native memory", () => {
    const problem = named[0]!.problem;
    const first = solved(problem);
    for (let i = 0; i < 20; i++) solved(named[i % named.length]!.problem);
    const memory = highs.memoryBytes;
    for (let i = 0; i < 300; i++) solved(named[i % named.length]!.problem);
    expect(highs.memoryBytes).toBe(memory);
    const again = solved(problem);
    expect(Array.from(again.solution.x)).toEqual(Array.from(first.solution.x));
    expect(again.sensitivity).toEqual(first.sensitivity);
  });
});

describe("shadow prices", () => {
  test("each holds over its validFrom..validTo (re-solves with the limit moved a small step and to the ends) and is a true marginal cost beyond", () => {
    let checked = 0;
    for (const { label, problem } of named) {
      const { solution, sensitivity } = solved(problem);
      const f0 = solution.objective;
      for (const s of sensitivity.shadowPrices) {
        if (s.limit.kind === "ratio") continue;
        const predicted = (v: number) => f0 + s.shadowPrice * (v - s.value);
        const from = s.validFrom ?? s.value - 1e3 * Math.max(1, Math.abs(s.value));
        const to = s.validTo ?? s.value + 1e3 * Math.max(1, Math.abs(s.value));
        const step = 1e-3 * Math.max(1, Math.abs(s.value));
        const inside = [s.value + Math.min(step, (to - s.value) / 2), s.value - Math.min(step, (s.value - from) / 2), from, to];
        for (const v of inside) {
          const f = optimum(movedLimit(problem, s.row, s.bound, v));
          expect({ label, row: s.row, v, holds: f !== null && Math.abs(f - predicted(v)) <= tolerance(f0, s.shadowPrice * (v - s.value)) }).toEqual({ label, row: s.row, v, holds: true });
        }
        // Beyond the range the cost never falls below the line: the shadow price is a subgradient.
        for (const v of [to + Math.max(step, Math.abs(to) * 0.01), from - Math.max(step, Math.abs(from) * 0.01)]) {
          const f = optimum(movedLimit(problem, s.row, s.bound, v));
          if (f !== null) expect({ label, row: s.row, v, above: f >= predicted(v) - tolerance(f0, s.shadowPrice * (v - s.value)) }).toEqual({ label, row: s.row, v, above: true });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  test("a ratio's shadow price is d(cost)/d(ratio limit): it matches a re-solve with the ratio's limit moved a small step", () => {
    let checked = 0;
    for (const { label, problem } of named) {
      const { solution, sensitivity } = solved(problem);
      for (const s of sensitivity.shadowPrices) {
        if (s.limit.kind !== "ratio") continue;
        const h = 1e-5 * Math.max(1, Math.abs(s.value));
        const up = optimum(movedLimit(problem, s.row, s.bound, s.value + h));
        const down = optimum(movedLimit(problem, s.row, s.bound, s.value - h));
        const right = up === null ? null : (up - solution.objective) / h;
        const left = down === null ? null : (solution.objective - down) / h;
        const close = (d: number | null) => d !== null && Math.abs(d - s.shadowPrice) <= 1e-3 * Math.max(1, Math.abs(s.shadowPrice));
        // At a degenerate optimum the two one-sided derivatives differ; the shadow price is one of them.
        expect({ label, row: s.row, matches: close(right) || close(left) }).toEqual({ label, row: s.row, matches: true });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("price ranges and entersBelow", () => {
  /** How the mix x* compares with the re-solved optimum at these prices: cost gap and largest change of a percent. */
  const stillOptimal = (problem: LeastCostProblem, x: Float64Array, prices: number[]) => {
    const s = solveLp(highs, lpOf(problem, prices), { ranging: false });
    const cost = prices.reduce((sum, p, j) => sum + (p * x[j]!) / 100, 0);
    const moved = Math.max(...Array.from(x, (v, j) => Math.abs(v - s.x[j]!)));
    return { gap: cost - s.objective, scale: Math.max(1, Math.abs(s.objective)), moved };
  };
  const at = (problem: LeastCostProblem, j: number, p: number) => problem.candidates.map((c, i) => (i === j ? p : c.price));

  test("a price just inside a range keeps the composition optimal, just outside it does not; a price just below entersBelow brings the ingredient in", () => {
    const counts = { ranged: 0, entering: 0, never: 0, degenerate: 0, plain: 0 };
    for (const { label, problem } of named) {
      const { solution, sensitivity } = solved(problem);
      const x = solution.x;
      counts[sensitivity.degenerate ? "degenerate" : "plain"]++;
      problem.candidates.forEach((c, j) => {
        if (c.held) return;
        const delta = (p: number) => 1e-3 * Math.max(1, Math.abs(p));
        const keeps = (p: number) => stillOptimal(problem, x, at(problem, j, p)).gap <= tolerance(stillOptimal(problem, x, at(problem, j, p)).scale);
        // Not optimal any more: the re-solve finds a different mix that costs less (at a price of −600,000
        // a change of 6e-6 % saves only 4e-5 per ton: hence a relative threshold on the cost, and a move of the mix).
        const loses = (p: number) => {
          const { gap, scale, moved } = stillOptimal(problem, x, at(problem, j, p));
          return gap > 1e-12 * scale && moved > 1e-7;
        };
        if (inMix(x, j)) {
          const low = sensitivity.priceLow[j]!;
          const high = sensitivity.priceHigh[j]!;
          for (const [end, inward] of [[high, -1], [low, 1]] as const) {
            if (end === null) {
              expect({ label, j, farKeeps: keeps(c.price - inward * 1e3 * Math.max(1, c.price)) }).toEqual({ label, j, farKeeps: true });
              continue;
            }
            const other = inward === -1 ? low : high;
            const room = other === null ? delta(end) : Math.min(delta(end), Math.abs(end - other) / 2);
            expect({ label, j, end, inside: keeps(end + inward * room) }).toEqual({ label, j, end, inside: true });
            expect({ label, j, end, outside: loses(end - inward * delta(end)) }).toEqual({ label, j, end, outside: true });
          }
          counts.ranged++;
        } else {
          const t = sensitivity.entersBelow[j]!;
          if (t === null) {
            const far = optimum(problem, at(problem, j, -1e6));
            expect({ label, j, neverEnters: far !== null && solveLp(highs, lpOf(problem, at(problem, j, -1e6)), { ranging: false }).x[j]! <= FEASIBLE }).toEqual({ label, j, neverEnters: true });
            counts.never++;
            return;
          }
          const below = solveLp(highs, lpOf(problem, at(problem, j, t - delta(t))), { ranging: false });
          expect({ label, j, t, enters: below.x[j]! > FEASIBLE }).toEqual({ label, j, t, enters: true });
          expect({ label, j, t, staysOut: keeps(t + delta(t)) }).toEqual({ label, j, t, staysOut: true });
          counts.entering++;
        }
      });
    }
    // Both ways of ranging (the basis's, and the exact programs for degenerate optima) are exercised.
    expect(counts.ranged).toBeGreaterThan(300);
    expect(counts.entering).toBeGreaterThan(100);
    expect(counts.degenerate).toBeGreaterThan(20);
    expect(counts.plain).toBeGreaterThan(20);
  });

  test("on non-degenerate optima the basis's ranges equal the exact programs'", () => {
    let compared = 0;
    for (const { label, problem } of named) {
      const { solution, sensitivity } = solved(problem);
      if (sensitivity.degenerate) continue;
      const exact = sensitivityOf(highs, problem, solution, { exactRanges: true });
      const same = (a: (number | null)[], b: (number | null)[]) => a.every((v, j) => (v === null ? b[j] === null : b[j] !== null && Math.abs(v - b[j]!) <= 1e-6 * Math.max(1, Math.abs(v))));
      expect({ label, low: same(sensitivity.priceLow, exact.priceLow), high: same(sensitivity.priceHigh, exact.priceHigh), enters: same(sensitivity.entersBelow, exact.entersBelow) }).toEqual({ label, low: true, high: true, enters: true });
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe("infeasible formulas name what to relax", () => {
  test("a limit no candidate can reach is named, with the best value reachable; relaxing every named limit to it makes the formula feasible", async () => {
    let checked = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const f = randomFormula(seed);
      const key = "N0";
      const reachable = Math.max(...f.candidates.filter((c) => !c.held).map((c) => c.nutrients[key] ?? 0));
      const impossible = { ...f.constraints, nutrients: [...f.constraints.nutrients, { key, min: reachable + 1, max: null }] };
      const problem = buildProblem(f.candidates, impossible);
      const outcome = solveLeastCost(highs, problem);
      expect({ seed, status: outcome.status }).toEqual({ seed, status: "infeasible" });
      expect(await glpkOptimum(problem)).toBeNull();
      if (outcome.status !== "infeasible") continue;
      const named = outcome.conflicts.find((c) => c.limit.kind === "nutrient" && c.limit.key === key && c.bound === "min" && c.value === reachable + 1);
      expect({ seed, named: named !== undefined && named.bestAchievable! <= reachable + FEASIBLE }).toEqual({ seed, named: true });
      // Relax each named bound to the value the elastic mix reached: the formula becomes feasible.
      let relaxed = problem;
      for (const c of outcome.conflicts) {
        const r = problem.rows.findIndex((row) => row.limit === c.limit);
        const row = relaxed.rows[r]!;
        if (c.limit.kind === "ratio") relaxed = c.bestAchievable === null ? withRow(relaxed, r, { lower: -Infinity, upper: Infinity }) : movedLimit(relaxed, r, c.bound, c.bestAchievable + (c.bound === "min" ? -1e-6 : 1e-6));
        else relaxed = withRow(relaxed, r, c.bound === "min" ? { lower: Math.min(row.lower, c.bestAchievable! - 1e-6) } : { upper: Math.max(row.upper, c.bestAchievable! + 1e-6) });
      }
      expect({ seed, feasibleAfter: optimum(relaxed) !== null }).toEqual({ seed, feasibleAfter: true });
      checked++;
    }
    expect(checked).toBe(60);
  });

  test("an out-of-stock hold is hard: a minimum inclusion of a held candidate is the conflict, never the hold", () => {
    const candidates = [
      { name: "Maize", price: 228, held: false, nutrients: { CP: 8.5 } },
      { name: "Fish meal", price: 1650, held: true, nutrients: { CP: 62 } },
    ];
    const outcome = solveLeastCost(highs, buildProblem(candidates, { nutrients: [], ingredients: [{ name: "Fish meal", min: 2, max: null }], ratios: [] }));
    expect(outcome.status).toBe("infeasible");
    if (outcome.status !== "infeasible") return;
    expect(outcome.conflicts.map((c) => ({ ...c, bestAchievable: Math.abs(c.bestAchievable!) }))).toEqual([
      { limit: { kind: "ingredient", name: "Fish meal", min: 2, max: null }, bound: "min", value: 2, bestAchievable: 0, alone: true },
    ]);
  });

  test("a ratio conflict names numerator and denominator", () => {
    const candidates: Candidate[] = [
      { name: "Limestone", price: 60, held: false, nutrients: { Ca: 38 } },
      { name: "Dicalcium phosphate", price: 700, held: false, nutrients: { Ca: 22, avP: 18.5 } },
    ];
    // Ca : avP can go no lower than 22 / 18.5 = 1.189
    const problem = buildProblem(candidates, { nutrients: [], ingredients: [], ratios: [{ numerator: "Ca", denominator: "avP", min: null, max: 1 }] });
    const outcome = solveLeastCost(highs, problem);
    expect(outcome.status).toBe("infeasible");
    if (outcome.status !== "infeasible") return;
    expect(outcome.conflicts).toHaveLength(1);
    expect(outcome.conflicts[0]!.limit).toEqual({ kind: "ratio", numerator: "Ca", denominator: "avP", limit: 1 });
    expect(outcome.conflicts[0]!.bound).toBe("max");
    // 22 / 18.5 = 1.18918…, rounded up (toward feasibility for a max) at 4 decimals.
    expect(outcome.conflicts[0]!.bestAchievable).toBe(1.1892);
    expect(outcome.conflicts[0]!.alone).toBe(true);
  });
});

test("the binding rows are the non-basic ones", () => {
  // A guard on the reading of HiGHS's basis codes that the shadow prices rely on.
  const problem = buildProblem([{ name: "A", price: 200, held: false, nutrients: { CP: 10 } }, { name: "B", price: 400, held: false, nutrients: { CP: 40 } }], { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [], ratios: [] });
  const { solution, sensitivity } = solved(problem);
  expect(solution.rowStatus[1]).toBe(BASIS.lower);
  // x_B = 100/3 %: CP 20 costs (2/3 × 200 + 1/3 × 400) = 266.67 per ton; one more % CP costs (400 − 200) / 30 = 6.6667.
  expect(sensitivity.shadowPrices[0]!.shadowPrice).toBeCloseTo(200 / 30, 9);
  expect(solution.objective).toBeCloseTo(800 / 3, 9);
});

describe("candidates=all", () => {
  test("the optimum over every in-stock ingredient of the workspace equals GLPK's, and is no dearer than over the formula's own candidates", async () => {
    const tmp = tempDir();
    const db = openDatabase(`${tmp.dir}/demo.db`, { create: true });
    seedDemo(db, "2026-11-23T00:00:00.000Z");
    try {
      const every = listIngredientDetails(db, 1);
      let cheaper = 0;
      for (const f of listFormulaDetails(db, 1)) {
        const lookup = (name: string) => findIngredient(db, 1, name);
        const all = candidatesOf(f, lookup, everyIngredient(NO_OPTIONS, every));
        // Every in-stock ingredient is a candidate; an out-of-stock one only on the formula's own account (held).
        expect(all.filter((c) => !c.held).map((c) => c.name).sort()).toEqual(every.filter((i) => i.inStock).map((i) => i.name).sort());
        const problem = buildProblem(all, f.constraints);
        const own = buildProblem(candidatesOf(f, lookup, NO_OPTIONS), f.constraints);
        const ours = solveLeastCost(highs, problem);
        const theirs = await glpkOptimum(problem);
        if (ours.status !== "optimal") {
          expect({ id: f.id, theirs }).toEqual({ id: f.id, theirs: null });
          continue;
        }
        expect({ id: f.id, same: Math.abs(ours.solution.objective - theirs!) <= 1e-6 * Math.max(1, theirs!) }).toEqual({ id: f.id, same: true });
        const narrow = optimum(own);
        if (narrow !== null) {
          expect({ id: f.id, noDearer: ours.solution.objective <= narrow + tolerance(narrow) }).toEqual({ id: f.id, noDearer: true });
          if (ours.solution.objective < narrow - 0.01) cheaper++;
        }
      }
      // The wider set is a real question: some formulas are cheaper with it.
      expect(cheaper).toBeGreaterThan(0);
    } finally {
      db.close();
      tmp.cleanup();
    }
  });
});

describe("the rounded optimum (what is shown and saved)", () => {
  test("percents on the 0.0001 grid summing to exactly 100 that keep every limit exactly in decimal, costing no less than GLPK's optimum and at most 0.20 more per ton", async () => {
    let checked = 0;
    // Limits as people write them (2 decimals): the random formulas' own limits sit on knife edges (a
    // limit exactly at an optimum's level with 15 digits) that no mix on the grid can keep.
    const rounded = Array.from({ length: 120 }, (_, k) => {
      const f = randomFormula(k + 1, { roundLimits: true });
      return { label: `random seed ${k + 1}, limits of 2 decimals`, problem: buildProblem(f.candidates, f.constraints) };
    });
    const demos = named.filter((n) => n.label.startsWith("demo"));
    for (const { label, problem } of [...demos, ...rounded]) {
      const { solution } = solved(problem);
      const units = roundedMix(highs, problem, solution.x);
      const percents = Array.from(units, (u) => round(u / 10_000, 4));
      expect({ label, sum: units.reduce((s, u) => s + u, 0) }).toEqual({ label, sum: 1_000_000 });
      expect({ label, broken: exactBreaks(problem, percents) }).toEqual({ label, broken: [] });
      problem.candidates.forEach((c, j) => {
        // An ingredient at 0 stays 0; a held one is never let in.
        if (!inMix(solution.x, j) || c.held) expect({ label, j, zero: units[j] }).toEqual({ label, j, zero: 0 });
      });
      const theirs = (await glpkOptimum(problem))!;
      const cost = costPerTon(problem.candidates, percents);
      expect({ label, noCheaper: cost >= theirs - tolerance(theirs), close: cost - theirs <= 0.2 }).toEqual({ label, noCheaper: true, close: true });
      checked++;
    }
    expect(checked).toBe(demos.length + rounded.length);
  });
});

describe("single-limit repairs", () => {
  /** Row r with one bound set to v; a ratio row is rebuilt at the new ratio. */
  function withBound(problem: LeastCostProblem, r: number, bound: "min" | "max", v: number): LeastCostProblem {
    const row = problem.rows[r]!;
    const limit = row.limit!;
    if (limit.kind === "ratio") {
      expect(row.lower === row.upper).toBe(false);
      return withRow(problem, r, { coefficients: ratioCoefficients(problem.candidates, limit.numerator, limit.denominator, v) });
    }
    return withRow(problem, r, bound === "min" ? { lower: v } : { upper: v });
  }
  const rowOf = (problem: LeastCostProblem, limit: unknown) => problem.rows.findIndex((row) => row.limit === limit);

  /** Random formulas made infeasible three ways: an out-of-reach nutrient min, a max below what the others force, a ratio min out of reach. */
  function infeasibleFormulas(): { label: string; problem: LeastCostProblem }[] {
    const out: { label: string; problem: LeastCostProblem }[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const f = randomFormula(seed);
      const base = buildProblem(f.candidates, f.constraints);
      const key = `N${seed % 2}`;
      // The most (and least) of `key` the other limits allow: just past it is out of reach of that limit alone.
      const most = optimum(withRow(base, 0, {}), base.candidates.map((c) => -(c.nutrients[key] ?? 0)));
      const least = optimum(base, base.candidates.map((c) => c.nutrients[key] ?? 0));
      if (most === null || least === null) continue;
      const others = f.constraints.nutrients.filter((c) => c.key !== key);
      out.push({ label: `seed ${seed} min`, problem: buildProblem(f.candidates, { ...f.constraints, nutrients: [...others, { key, min: round(-most, 4) + 0.5 + seed / 10, max: null }] }) });
      if (least > 0.01) out.push({ label: `seed ${seed} max`, problem: buildProblem(f.candidates, { ...f.constraints, nutrients: [...others, { key, min: null, max: round(least * 0.8, 4) }] }) });
      const ratio = f.constraints.ratios?.[0];
      if (ratio) out.push({ label: `seed ${seed} ratio`, problem: buildProblem(f.candidates, { ...f.constraints, ratios: [{ ...ratio, min: (ratio.min ?? ratio.max ?? 1) * 3 + 1, max: null }] }) });
    }
    return out;
  }

  test("each single-limit repair makes the formula feasible when moved alone (GLPK re-solve), a step short of it does not, and no limit left out would do", async () => {
    const counts = { formulas: 0, repairs: 0, ratio: 0, none: 0 };
    for (const { label, problem } of infeasibleFormulas()) {
      if ((await glpkOptimum(problem)) !== null) continue;
      const outcome = solveLeastCost(highs, problem);
      expect({ label, status: outcome.status }).toEqual({ label, status: "infeasible" });
      if (outcome.status !== "infeasible") continue;
      counts.formulas++;
      const single = outcome.conflicts.filter((c) => c.alone);
      if (single.length === 0) counts.none++;
      for (const c of single) {
        const r = rowOf(problem, c.limit);
        const best = c.bestAchievable!;
        // Rounded toward feasibility: moved there, the formula has a mix.
        expect({ label, c, feasible: (await glpkOptimum(withBound(problem, r, c.bound, best))) !== null }).toEqual({ label, c, feasible: true });
        // The true end lies within 0.0001 of the shown one: two steps short of it, no mix.
        const short = best + (c.bound === "min" ? 2e-4 : -2e-4) * Math.max(1, Math.abs(best)) ;
        if (Math.abs(short - c.value) < Math.abs(best - c.value)) expect({ label, c, short: await glpkOptimum(withBound(problem, r, c.bound, short)) }).toEqual({ label, c, short: null });
        counts.repairs++;
        if (c.limit.kind === "ratio") counts.ratio++;
      }
      // Ordered by the relative move.
      const moves = single.map((c) => Math.abs(c.bestAchievable! - c.value) / Math.max(1, Math.abs(c.value)));
      expect({ label, ordered: moves.every((m, i) => i === 0 || m >= moves[i - 1]!) }).toEqual({ label, ordered: true });
      // Complete: every bound not listed, dropped altogether, still leaves no mix.
      for (let r = 1; r < problem.rows.length; r++) {
        const row = problem.rows[r]!;
        for (const bound of ["min", "max"] as const) {
          if (!Number.isFinite(bound === "min" ? row.lower : row.upper)) continue;
          if (single.some((c) => c.limit === row.limit && c.bound === bound)) continue;
          const dropped = withRow(problem, r, bound === "min" ? { lower: -Infinity } : { upper: Infinity });
          expect({ label, r, bound, stillInfeasible: await glpkOptimum(dropped) }).toEqual({ label, r, bound, stillInfeasible: null });
        }
      }
    }
    expect(counts.formulas).toBeGreaterThan(40);
    expect(counts.repairs).toBeGreaterThan(60);
    expect(counts.ratio).toBeGreaterThan(3);
  });

  test("the broiler starter with CP min 45 and Met max 0.7 names each limit that alone repairs it, not only ME (the issue's report)", async () => {
    const demo = named.find((n) => n.label === "demo broiler-starter")!;
    const nutrients = [...demo.constraints.nutrients.filter((c) => c.key !== "Met").map((c) => (c.key === "CP" ? { ...c, min: 45, max: null } : c)), { key: "Met", min: null, max: 0.7 }];
    const problem = buildProblem(demo.problem.candidates, { ...demo.constraints, nutrients });
    const outcome = solveLeastCost(highs, problem);
    expect(outcome.status).toBe("infeasible");
    if (outcome.status !== "infeasible") return;
    const named_ = outcome.conflicts.map((c) => `${c.limit.kind === "nutrient" ? c.limit.key : c.limit.kind} ${c.bound} ${c.alone}`);
    expect(named_).toContain("CP min true");
    expect(named_.length).toBeGreaterThan(1);
    // Which limits alone repair it depends on the data: GLPK decides. Each named one, moved to its value, has a mix;
    // every bound not named, dropped altogether, still has none.
    for (const c of outcome.conflicts) {
      expect({ c: named_, feasible: (await glpkOptimum(withBound(problem, rowOf(problem, c.limit), c.bound, c.bestAchievable!))) !== null }).toEqual({ c: named_, feasible: true });
    }
    for (let r = 1; r < problem.rows.length; r++) {
      const row = problem.rows[r]!;
      for (const bound of ["min", "max"] as const) {
        if (!Number.isFinite(bound === "min" ? row.lower : row.upper)) continue;
        if (outcome.conflicts.some((c) => c.limit === row.limit && c.bound === bound)) continue;
        const dropped = withRow(problem, r, bound === "min" ? { lower: -Infinity } : { upper: Infinity });
        expect({ r, bound, stillInfeasible: await glpkOptimum(dropped) }).toEqual({ r, bound, stillInfeasible: null });
      }
    }
  });
});

describe("ranges shown inward", () => {
  /** The problem with ratio row r at limit v and every row binding at the optimum fixed at its bound. */
  function sameLimitsBind(problem: LeastCostProblem, binding: { r: number; bound: "min" | "max" }[], r: number, bound: "min" | "max", v: number): LeastCostProblem {
    let fixed = movedLimit(problem, r, bound, v);
    for (const b of binding) {
      const row = fixed.rows[b.r]!;
      fixed = withRow(fixed, b.r, b.bound === "min" ? { upper: row.lower } : { lower: row.upper });
    }
    return fixed;
  }

  test("a ratio limit's validFrom..validTo: at points inside, an optimum (GLPK) has every limit that binds now still binding", async () => {
    let checked = 0;
    let wide = 0;
    for (const { label, problem } of named) {
      const { solution, sensitivity } = solved(problem);
      const binding = problem.rows.flatMap((row, r): { r: number; bound: "min" | "max" }[] => {
        if (r === 0 || row.lower === row.upper) return [];
        const status = solution.rowStatus[r];
        return status === BASIS.lower ? [{ r, bound: "min" }] : status === BASIS.upper ? [{ r, bound: "max" }] : [];
      });
      for (const s of sensitivity.shadowPrices) {
        if (s.limit.kind !== "ratio") continue;
        const scale = Math.max(1, Math.abs(s.value));
        const from = s.validFrom ?? s.value - 10 * scale;
        const to = s.validTo ?? s.value + 10 * scale;
        expect({ label, row: s.row, ordered: from <= s.value + 1e-9 && s.value <= to + 1e-9 }).toEqual({ label, row: s.row, ordered: true });
        for (const v of [s.value + (to - s.value) / 2, s.value - (s.value - from) / 2, to - (to - s.value) * 1e-3, from + (s.value - from) * 1e-3]) {
          const free = await glpkOptimum(movedLimit(problem, s.row, s.bound, v));
          const held = await glpkOptimum(sameLimitsBind(problem, binding, s.row, s.bound, v));
          const same = free !== null && held !== null && Math.abs(held - free) <= 1e-6 * Math.max(1, Math.abs(free));
          expect({ label, row: s.row, v, same }).toEqual({ label, row: s.row, v, same: true });
        }
        checked++;
        if (s.validFrom !== null && s.validTo !== null && s.validFrom < s.value - 1e-6 && s.validTo > s.value + 1e-6) wide++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // Not only points: most ranges reach both ways.
    expect(wide).toBeGreaterThan(checked / 3);
  });

  test("every range shown lies inside the true one: validFrom and priceLow rounded up (priceLow never below 0), validTo, priceHigh and entersBelow down", () => {
    let ends = 0;
    for (const { label, problem, constraints } of named.filter((n) => n.label.startsWith("demo"))) {
      const { sensitivity } = solved(problem);
      const lookup = (name: string) => {
        const c = problem.candidates.find((k) => k.name === name);
        return c ? { name, category: "x", price: c.price, inStock: !c.held, nutrients: c.nutrients } as never : null;
      };
      const result = optimizeFormula(highs, { id: label, name: label, batchSize: 1000, ingredients: [], constraints }, lookup, { ...NO_OPTIONS, include: problem.candidates.map((c) => c.name) });
      const shown = [...result.shadowPrices.nutrients, ...result.shadowPrices.ingredients, ...result.shadowPrices.ratios];
      expect(shown.length).toBe(sensitivity.shadowPrices.length);
      sensitivity.shadowPrices.forEach((s, k) => {
        const { validFrom, validTo } = shown[k]!;
        if (validFrom !== null) expect({ label, k, inside: validFrom >= (s.validFrom ?? -Infinity) - 1e-9 && validFrom <= s.value }).toEqual({ label, k, inside: true });
        if (validTo !== null) expect({ label, k, inside: validTo <= (s.validTo ?? Infinity) + 1e-9 && validTo >= s.value }).toEqual({ label, k, inside: true });
        ends += 2;
      });
      for (const g of result.ranging) {
        const j = problem.candidates.findIndex((c) => c.name === g.name);
        const [low, high] = [sensitivity.priceLow[j]!, sensitivity.priceHigh[j]!];
        expect({ label, g: g.name, inside: g.priceLow >= 0 && g.priceLow >= (low ?? -Infinity) - 1e-9 && (g.priceHigh === null ? high === null : g.priceHigh <= high! + 1e-9) }).toEqual({ label, g: g.name, inside: true });
      }
      for (const e of result.excluded) {
        const j = problem.candidates.findIndex((c) => c.name === e.name);
        const t = sensitivity.entersBelow[j]!;
        expect({ label, e: e.name, inside: e.entersBelow === null ? t === null : e.entersBelow <= t! + 1e-9 }).toEqual({ label, e: e.name, inside: true });
      }
    }
    expect(ends).toBeGreaterThan(50);
  });
});
