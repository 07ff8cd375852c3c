/**
 * Proofs, not examples, that the cost–CO2e frontier is right (docs/decisions.md#carbon-footprint): on
 * seeded random formulas with seeded footprints, every point is checked against a second, independent
 * LP solver (GLPK): optimal at its footprint, the ends where they should be, costs rising and footprints
 * falling, and the abatement cost between two points equal to the cap's shadow price inside the segment.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { co2eCoefficients, withCo2eCap } from "../src/optimize/co2e.ts";
import { frontierOf, type FrontierPoint } from "../src/optimize/frontier.ts";
import { frontierTask } from "../src/optimize/frontier-task.ts";
import { activity, buildProblem, type Candidate, type LeastCostProblem } from "../src/optimize/model.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { withFootprints } from "./helpers/footprints.ts";
import { glpkSolve, randomFormula } from "./helpers/lp-problems.ts";

const RANDOM_PROBLEMS = 120;
const POINTS = 11;
const FEASIBLE = 1e-6;
const close = (a: number, b: number, scale = 1) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b), scale);

let highs: Highs;
beforeAll(async () => {
  highs = await solverRuntime();
});

/** The problem with the footprint row capped at `cap` (the frontier's own problem when cap is Infinity). */
const capped = (candidates: Candidate[], constraints: Parameters<typeof buildProblem>[1], cap: number) => withCo2eCap(buildProblem(candidates, constraints), cap);
const withCostCap = (problem: LeastCostProblem, upper: number): LeastCostProblem => ({
  ...problem,
  rows: [...problem.rows, { limit: null, coefficients: Float64Array.from(problem.candidates, (c) => c.price / 100), lower: -Infinity, upper }],
});
/** GLPK's cheapest cost and the cap's dual at footprint cap. */
async function glpkAt(candidates: Candidate[], constraints: Parameters<typeof buildProblem>[1], cap: number) {
  const problem = capped(candidates, constraints, cap);
  const solved = await glpkSolve(problem);
  if (!solved) throw new Error(`GLPK finds no mix at ${cap}`);
  return { cost: solved.objective, dual: solved.dual[problem.rows.length - 1]! };
}
const slope = (a: FrontierPoint, b: FrontierPoint) => (b.cost - a.cost) / (a.co2e - b.co2e);

describe("the frontier, against GLPK", () => {
  test("each point is the cheapest mix at its footprint; the ends are the least-cost (least footprint among those) and the least-CO2e mixes; costs rise and footprints fall, evenly spaced; abatement between two points is the cap's shadow price inside the segment", async () => {
    const counts = { frontiers: 0, onePoint: 0, infeasible: 0, points: 0, linearSegments: 0, segments: 0 };
    for (let seed = 1; seed <= RANDOM_PROBLEMS; seed++) {
      const f = randomFormula(seed);
      const candidates = withFootprints(f.candidates, seed);
      const { constraints } = f;
      const label = `seed ${seed}`;
      const frontier = frontierOf(highs, { candidates, constraints, points: POINTS });
      const problem = capped(candidates, constraints, Infinity);
      expect({ label, heldOut: frontier.heldOut }).toEqual({ label, heldOut: candidates.filter((c) => c.co2e === null).map((c) => c.name) });
      const cheapest = await glpkSolve(problem);
      if (frontier.status === "infeasible") {
        // Holding the unknown footprints at 0 can leave no mix: GLPK agrees.
        expect({ label, glpk: cheapest }).toEqual({ label, glpk: null });
        counts.infeasible++;
        continue;
      }
      expect({ label, glpk: cheapest !== null }).toEqual({ label, glpk: true });
      const footprint = co2eCoefficients(problem.candidates);
      const least = (await glpkSolve(problem, footprint))!.objective;
      const { points } = frontier;
      const first = points[0]!;
      const last = points.at(-1)!;
      // No mix as cheap as the first point has a smaller footprint.
      const highest = (await glpkSolve(withCostCap(problem, first.cost), footprint))?.objective ?? first.co2e;
      expect({ label, firstCost: close(first.cost, cheapest!.objective), firstCo2e: highest >= first.co2e - 1e-6 * Math.max(1, first.co2e) }).toEqual({ label, firstCost: true, firstCo2e: true });
      expect({ label, lastCo2e: close(last.co2e, least, 1e3) }).toEqual({ label, lastCo2e: true });
      if (points.length === 1) {
        expect({ label, same: close(highest, least, 1e3) }).toEqual({ label, same: true });
        counts.onePoint++;
        continue;
      }
      expect({ label, length: points.length }).toEqual({ label, length: POINTS });
      const step = (first.co2e - last.co2e) / (POINTS - 1);
      for (const [k, p] of points.entries()) {
        // Held candidates at 0, every row met, the footprint exactly at the point's (the cap binds).
        problem.candidates.forEach((c, j) => c.held && expect({ label, k, j, held: p.x[j]! <= FEASIBLE }).toEqual({ label, k, j, held: true }));
        problem.rows.forEach((row, r) => {
          const a = activity(row.coefficients, p.x);
          const upper = r === problem.rows.length - 1 ? p.co2e : row.upper;
          expect({ label, k, r, met: a >= row.lower - FEASIBLE * Math.max(1, Math.abs(row.lower)) && a <= upper + FEASIBLE * Math.max(1, Math.abs(upper)) }).toEqual({ label, k, r, met: true });
        });
        expect({ label, k, atFootprint: close(activity(footprint, p.x), p.co2e, 1e3) }).toEqual({ label, k, atFootprint: true });
        expect({ label, k, evenly: close(p.co2e, first.co2e - k * step, 1e3) }).toEqual({ label, k, evenly: true });
        const glpk = await glpkAt(candidates, constraints, p.co2e);
        expect({ label, k, optimal: close(p.cost, glpk.cost) }).toEqual({ label, k, optimal: true });
        counts.points++;
        if (k === 0) continue;
        const before = points[k - 1]!;
        expect({ label, k, costRises: p.cost >= before.cost - 1e-7 * Math.max(1, p.cost), footprintFalls: p.co2e < before.co2e }).toEqual({ label, k, costRises: true, footprintFalls: true });
        // The cost of a kg avoided between two points lies between the cap's shadow prices at its ends
        // (cost is convex in the cap), ours and GLPK's; inside one linear piece it is the shadow price there.
        const s = slope(before, p);
        const tol = 1e-6 * Math.max(1, Math.abs(s));
        const glpkBefore = await glpkAt(candidates, constraints, before.co2e);
        expect({ label, k, ours: -before.shadowPrice <= s + tol && s <= -p.shadowPrice + tol, glpk: -glpkBefore.dual <= s + tol && s <= -glpk.dual + tol }).toEqual({ label, k, ours: true, glpk: true });
        // One linear piece when GLPK's cost at a quarter, half and three quarters lies on the chord.
        const along = (t: number) => ({ co2e: before.co2e + t * (p.co2e - before.co2e), cost: before.cost + t * (p.cost - before.cost) });
        const inside = await Promise.all([0.25, 0.5, 0.75].map(async (t) => ({ chord: along(t).cost, ...(await glpkAt(candidates, constraints, along(t).co2e)) })));
        counts.segments++;
        if (inside.every((i) => Math.abs(i.cost - i.chord) <= 1e-9 * Math.max(1, i.cost))) {
          const dual = -inside[1]!.dual;
          expect({ label, k, s, dual, abatement: close(s, dual) }).toEqual({ label, k, s, dual, abatement: true });
          counts.linearSegments++;
        }
      }
      counts.frontiers++;
    }
    // Every kind of case is exercised, and most segments lie inside one linear piece.
    expect(counts.frontiers).toBeGreaterThan(40);
    expect(counts.onePoint).toBeGreaterThan(3);
    expect(counts.linearSegments).toBeGreaterThan(counts.segments / 2);
  });

  test("two soybean meals by origin: one straight substitution, every segment at the same cost per tonne of CO2e avoided", async () => {
    const candidates: Candidate[] = [
      { name: "Maize", price: 228, held: false, nutrients: { CP: 8 }, co2e: 0.4 },
      { name: "Soybean meal 48% BR", price: 430, held: false, nutrients: { CP: 46 }, co2e: 4.5 },
      { name: "Soybean meal 48% US", price: 470, held: false, nutrients: { CP: 47 }, co2e: 0.55 },
    ];
    const constraints = { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [], ratios: [] };
    const frontier = frontierOf(highs, { candidates, constraints, points: 5 });
    if (frontier.status !== "optimal") throw new Error("expected a frontier");
    const { points } = frontier;
    // Ends by hand: 20 % CP from maize and one meal. BR: 1200/38 % meal; US: 1200/39 %.
    const br = 1200 / 38;
    const us = 1200 / 39;
    const high = { cost: (228 * (100 - br) + 430 * br) / 100, co2e: 10 * (0.4 * (100 - br) + 4.5 * br) };
    const low = { cost: (228 * (100 - us) + 470 * us) / 100, co2e: 10 * (0.4 * (100 - us) + 0.55 * us) };
    expect(points[0]!.cost).toBeCloseTo(high.cost, 6);
    expect(points[0]!.co2e).toBeCloseTo(high.co2e, 6);
    expect(points[4]!.cost).toBeCloseTo(low.cost, 6);
    expect(points[4]!.co2e).toBeCloseTo(low.co2e, 6);
    const perTonne = ((low.cost - high.cost) / (high.co2e - low.co2e)) * 1000;
    for (let k = 1; k < points.length; k++) {
      expect(slope(points[k - 1]!, points[k]!) * 1000).toBeCloseTo(perTonne, 6);
      expect(-points[k]!.shadowPrice * 1000).toBeCloseTo(perTonne, 6);
      const glpk = await glpkAt(candidates, constraints, (points[k - 1]!.co2e + points[k]!.co2e) / 2);
      expect(-glpk.dual * 1000).toBeCloseTo(perTonne, 6);
    }
  });

  test("ties on cost: the first point is the least footprint among the least-cost mixes", () => {
    // Two meals of the same price and protein: any blend is least-cost; the first point takes the US one.
    const candidates: Candidate[] = [
      { name: "Maize", price: 228, held: false, nutrients: { CP: 8 }, co2e: 0.4 },
      { name: "Soybean meal 48% BR", price: 450, held: false, nutrients: { CP: 46 }, co2e: 4.5 },
      { name: "Soybean meal 48% US", price: 450, held: false, nutrients: { CP: 46 }, co2e: 0.55 },
    ];
    const frontier = frontierOf(highs, { candidates, constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [], ratios: [] }, points: 11 });
    if (frontier.status !== "optimal") throw new Error("expected a frontier");
    expect(frontier.points).toHaveLength(1);
    expect(frontier.points[0]!.x[1]!).toBeCloseTo(0, 9);
  });

  test("unknown footprints are held out; a formula that needs one has no frontier, and says what to relax", () => {
    const candidates: Candidate[] = [
      { name: "Maize", price: 228, held: false, nutrients: { CP: 8 }, co2e: 0.4 },
      { name: "Fish meal", price: 1650, held: false, nutrients: { CP: 62 }, co2e: null },
    ];
    const frontier = frontierOf(highs, { candidates, constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [], ratios: [] }, points: 11 });
    expect(frontier.heldOut).toEqual(["Fish meal"]);
    expect(frontier.status).toBe("infeasible");
    if (frontier.status !== "infeasible") return;
    expect(frontier.conflicts.map((c) => [c.limit.kind, c.bound, c.value])).toEqual([["nutrient", "min", 20]]);
  });
});

describe("the frontier as shown", () => {
  const meals: Candidate[] = [
    { name: "Maize", price: 228, held: false, nutrients: { CP: 8 }, co2e: 0.4 },
    { name: "Soybean meal 48% BR", price: 430, held: false, nutrients: { CP: 46 }, co2e: 4.5 },
    { name: "Soybean meal 48% US", price: 470, held: false, nutrients: { CP: 47 }, co2e: 0.55 },
    { name: "Premix", price: 2000, held: false, nutrients: {}, co2e: null },
  ];
  const constraints = { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [], ratios: [] };

  test("footprints to 1 decimal, costs to 2, percents to 4; abatement from the shown figures; held-out names", () => {
    const shown = frontierTask(highs, { id: "f", name: "F", candidates: meals, constraints, points: 4 });
    expect(shown.status).toBe("optimal");
    expect(shown.heldOut).toEqual(["Premix"]);
    expect(shown.points).toHaveLength(4);
    expect(shown.points[0]!.ingredients).toEqual([
      { name: "Maize", percent: 68.4211 },
      { name: "Soybean meal 48% BR", percent: 31.5789 },
    ]);
    expect(shown.points.map((p) => p.co2ePerTon)).toEqual([1694.7, 1278.5, 862.3, 446.2]);
    for (const p of shown.points) {
      expect(p.costPerTon).toBe(Math.round(p.costPerTon * 100) / 100);
      expect(p.co2ePerTon).toBe(Math.round(p.co2ePerTon * 10) / 10);
    }
    expect(shown.abatement).toHaveLength(3);
    shown.abatement.forEach((a, k) => {
      const [before, after] = [shown.points[k]!, shown.points[k + 1]!];
      expect(a.from).toBe(before.co2ePerTon);
      expect(a.to).toBe(after.co2ePerTon);
      expect(a.costPerTonneCo2e).toBe(Math.round(((Math.round((after.costPerTon - before.costPerTon) * 100) / 100 / (Math.round((before.co2ePerTon - after.co2ePerTon) * 10) / 10)) * 1000) * 100) / 100);
    });
    expect(shown.conflicts).toEqual([]);
  });

  test("one point when the least-cost mix is also the least-CO2e mix: abatement []", () => {
    const cheapAndClean = meals.map((c) => (c.name === "Soybean meal 48% US" ? { ...c, price: 400 } : c));
    const shown = frontierTask(highs, { id: "f", name: "F", candidates: cheapAndClean, constraints, points: 11 });
    expect(shown.points).toHaveLength(1);
    expect(shown.abatement).toEqual([]);
  });
});
