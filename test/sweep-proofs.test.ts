/**
 * Proofs that price sweeps are right (docs/decisions.md#price-sweeps), on the demo formulas and seeded
 * random formulas: every point is GLPK's optimum at its price (cost and the swept percent, which is
 * unique away from a breakpoint); every breakpoint is one, by GLPK re-solves just either side of it
 * (±0.006 around a price shown to 2 decimals, so the exact one lies between); and none is missing: the
 * optimal percent falls as the price rises, so two points with different percents have a breakpoint
 * between them and two with the same percent none.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { seedDemo } from "../src/demo/seed.ts";
import { buildProblem, type LeastCostProblem } from "../src/optimize/model.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { lpOf } from "../src/optimize/solve.ts";
import { sweep, type SweepOutput } from "../src/optimize/sweep.ts";
import { openDatabase } from "../src/store/db.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { findIngredient } from "../src/store/ingredients.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { randomFormula } from "./helpers/lp-problems.ts";
import { tempDir } from "./helpers/harness.ts";

const RANDOM = 40;
let highs: Highs;
const cases: { label: string; problem: LeastCostProblem; swept: number; from: number; to: number }[] = [];

beforeAll(async () => {
  highs = await solverRuntime();
  const tmp = tempDir();
  const db = openDatabase(`${tmp.dir}/demo.db`, { create: true });
  seedDemo(db, "2026-11-23T00:00:00.000Z");
  for (const f of listFormulaDetails(db, 1)) {
    const candidates = candidatesOf(f, (name) => findIngredient(db, 1, name), NO_OPTIONS);
    const swept = candidates.findIndex((c) => !c.held);
    cases.push({ label: `demo ${f.id}`, problem: buildProblem(candidates, f.constraints), swept, from: 0, to: Math.ceil(candidates[swept]!.price * 2) });
  }
  db.close();
  tmp.cleanup();
  for (let seed = 1; seed <= RANDOM; seed++) {
    const f = randomFormula(seed);
    const free = f.candidates.flatMap((c, j) => (c.held ? [] : [j]));
    const swept = free[seed % free.length]!;
    cases.push({ label: `random seed ${seed}`, problem: buildProblem(f.candidates, f.constraints), swept, from: seed % 3 === 0 ? 10 : 0, to: Math.ceil(f.candidates[swept]!.price * 3) });
  }
});

/** GLPK's optimum with the swept price at `price`. */
async function glpkAt(c: (typeof cases)[number], price: number) {
  const prices = c.problem.candidates.map((cand, j) => (j === c.swept ? price : cand.price));
  return glpkSolve(lpOf(c.problem, prices));
}
/** A percent shown to 4 decimals, on a mix rounded so its percents sum to 100: within 0.0002 of the exact. */
const SHOWN = 0.0002;

describe("price sweeps", () => {
  const results = new Map<string, SweepOutput>();
  const run = (c: (typeof cases)[number]) => {
    if (!results.has(c.label)) results.set(c.label, sweep(highs, { problem: c.problem, swept: c.swept, from: c.from, to: c.to, points: 51 }));
    return results.get(c.label)!;
  };

  test("every point is GLPK's optimum at its price: the cost per ton and the swept percent", async () => {
    let breakpoints = 0;
    for (const c of cases) {
      const s = run(c);
      breakpoints += s.breakpoints.length;
      for (const p of s.points) {
        const theirs = await glpkAt(c, p.price);
        expect({ label: c.label, status: s.status }).toEqual({ label: c.label, status: theirs === null ? "infeasible" : "optimal" });
        if (theirs === null) {
          expect({ label: c.label, p }).toEqual({ label: c.label, p: { price: p.price, percent: null, costPerTon: null } });
          continue;
        }
        // A point at a breakpoint's own price reports the percent above it: GLPK may find either there.
        if (s.breakpoints.some((b) => Math.abs(b.price - p.price) < 0.01)) continue;
        const roundingSlack = c.problem.candidates.reduce((sum, cand, j) => sum + ((j === c.swept ? p.price : cand.price) * SHOWN) / 100, 0.005);
        expect({ label: c.label, price: p.price, cost: Math.abs(p.costPerTon! - theirs.z) <= roundingSlack }).toEqual({ label: c.label, price: p.price, cost: true });
        expect({ label: c.label, price: p.price, percent: Math.abs(p.percent! - theirs.x[c.swept]!) <= SHOWN }).toEqual({ label: c.label, price: p.price, percent: true });
      }
    }
    // The cases do move: most sweeps cross at least one breakpoint.
    expect(breakpoints).toBeGreaterThan(cases.length / 2);
  });

  test("every breakpoint is one: GLPK just below finds percentBelow, just above percentAbove", async () => {
    for (const c of cases) {
      const s = run(c);
      for (const b of s.breakpoints) {
        expect({ label: c.label, b, inside: b.price > c.from && b.price < c.to, falls: b.percentBelow > b.percentAbove }).toEqual({ label: c.label, b, inside: true, falls: true });
        // Neighbours closer than the probe make "just either side" meaningless at 2 decimals.
        if (s.breakpoints.some((o) => o !== b && Math.abs(o.price - b.price) < 0.02)) continue;
        const below = await glpkAt(c, Math.max(0, b.price - 0.006));
        const above = await glpkAt(c, b.price + 0.006);
        expect({ label: c.label, price: b.price, below: Math.abs(below!.x[c.swept]! - b.percentBelow) <= SHOWN }).toEqual({ label: c.label, price: b.price, below: true });
        expect({ label: c.label, price: b.price, above: Math.abs(above!.x[c.swept]! - b.percentAbove) <= SHOWN }).toEqual({ label: c.label, price: b.price, above: true });
      }
    }
  });

  test("no breakpoint is missing: between two points the percent changes exactly when a breakpoint lies between them", () => {
    for (const c of cases) {
      const s = run(c);
      if (s.status === "infeasible") continue;
      const prices = s.breakpoints.map((b) => b.price);
      expect({ label: c.label, ascending: prices.every((p, k) => k === 0 || p > prices[k - 1]!) }).toEqual({ label: c.label, ascending: true });
      s.breakpoints.forEach((b, k) => {
        if (k > 0) expect({ label: c.label, chained: b.percentBelow }).toEqual({ label: c.label, chained: s.breakpoints[k - 1]!.percentAbove });
      });
      for (let k = 1; k < s.points.length; k++) {
        const [a, z] = [s.points[k - 1]!, s.points[k]!];
        const between = s.breakpoints.filter((b) => b.price > a.price - 0.005 && b.price <= z.price + 0.005);
        expect({ label: c.label, at: z.price, falls: z.percent! <= a.percent! }).toEqual({ label: c.label, at: z.price, falls: true });
        if (between.length === 0) expect({ label: c.label, at: z.price, same: z.percent }).toEqual({ label: c.label, at: z.price, same: a.percent });
        if (z.percent !== a.percent) expect({ label: c.label, at: z.price, found: between.length > 0 }).toEqual({ label: c.label, at: z.price, found: true });
      }
    }
  });
});
