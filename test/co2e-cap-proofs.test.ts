/**
 * Proofs that a cap on the footprint (optimize?maxCo2e) is right (docs/decisions.md#carbon-footprint),
 * on seeded random formulas with seeded footprints, against GLPK: the capped optimum, the cap's shadow
 * price (a re-solve with the cap moved, GLPK's dual, and the frontier's abatement), the rounded mix
 * keeping the cap exactly, and a cap below the least-CO2e mix answered as infeasible with its repair.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { co2eCoefficients, co2eShadowShown, withCo2eCap } from "../src/optimize/co2e.ts";
import { decimalOf } from "../src/optimize/exact.ts";
import { frontierOf } from "../src/optimize/frontier.ts";
import { solveLp } from "../src/optimize/lp.ts";
import { round, type FormulaConstraints } from "../src/domain/formula-math.ts";
import { activity, buildProblem, type Candidate, type LeastCostProblem } from "../src/optimize/model.ts";
import { roundedMix } from "../src/optimize/rounding.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { lpOf, solveLeastCost } from "../src/optimize/solve.ts";
import { withFootprints } from "./helpers/footprints.ts";
import { exactBreaks, glpkSolve, randomFormula } from "./helpers/lp-problems.ts";

const RANDOM_PROBLEMS = 120;
const close = (a: number, b: number, scale = 1) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b), scale);

let highs: Highs;
beforeAll(async () => {
  highs = await solverRuntime();
});

/** Seeded formulas with footprints whose frontier spans a range: the least footprint and a cap halfway up. */
function* cappedProblems(options: { roundLimits?: boolean } = {}): Generator<{ label: string; candidates: Candidate[]; constraints: FormulaConstraints; base: LeastCostProblem; least: number; high: number }> {
  for (let seed = 1; seed <= RANDOM_PROBLEMS; seed++) {
    const f = randomFormula(seed, options);
    const candidates = withFootprints(f.candidates, seed);
    const frontier = frontierOf(highs, { candidates, constraints: f.constraints, points: 2 });
    if (frontier.status !== "optimal" || frontier.points.length < 2) continue;
    yield { label: `seed ${seed}`, candidates, constraints: f.constraints, base: buildProblem(candidates, f.constraints), least: frontier.points[1]!.co2e, high: frontier.points[0]!.co2e };
  }
}

const optimumAt = (base: LeastCostProblem, cap: number) => {
  const s = solveLp(highs, lpOf(withCo2eCap(base, cap)), { ranging: false });
  return s.status === "optimal" ? s.objective : null;
};

describe("optimize with maxCo2e, against GLPK", () => {
  test("the capped optimum is GLPK's; the cap binds, its shadow price between the one-sided slopes of re-solves, as GLPK's dual; the rounded mix keeps the cap exactly; unknown footprints are held", async () => {
    let checked = 0;
    // Limits as people write them (2 decimals, the cap 1): the rounded mix can then keep them all exactly.
    for (const { label, base, least, high } of cappedProblems({ roundLimits: true })) {
      const cap = Math.round(((least + high) / 2) * 10) / 10;
      const problem = withCo2eCap(base, cap);
      const outcome = solveLeastCost(highs, problem);
      expect({ label, status: outcome.status }).toEqual({ label, status: "optimal" });
      if (outcome.status !== "optimal") continue;
      const r = problem.rows.length - 1;
      const glpk = (await glpkSolve(problem))!;
      expect({ label, optimal: close(outcome.solution.objective, glpk.objective) }).toEqual({ label, optimal: true });
      problem.candidates.forEach((c, j) => c.co2e === null && expect({ label, j, held: outcome.solution.x[j]! <= 1e-9 }).toEqual({ label, j, held: true }));
      // Halfway between the ends the cap binds: its shadow price is the slope of cost against the cap.
      const shadow = outcome.sensitivity.shadowPrices.find((s) => s.limit.kind === "co2e");
      expect({ label, binds: shadow !== undefined }).toEqual({ label, binds: true });
      const step = 1e-4 * Math.max(1, high - least);
      const slope = (optimumAt(base, cap + step)! - optimumAt(base, cap - step)!) / (2 * step);
      const tol = 1e-5 * Math.max(1, Math.abs(slope));
      // At a kink the one-sided slopes differ; the dual lies between them.
      const right = (optimumAt(base, cap + step)! - optimumAt(base, cap)!) / step;
      const left = (optimumAt(base, cap)! - optimumAt(base, cap - step)!) / step;
      expect({ label, withinSlopes: shadow!.shadowPrice >= left - tol && shadow!.shadowPrice <= right + tol }).toEqual({ label, withinSlopes: true });
      expect({ label, glpkDual: close(glpk.dual[r]!, shadow!.shadowPrice) || (glpk.dual[r]! >= left - tol && glpk.dual[r]! <= right + tol) }).toEqual({ label, glpkDual: true });
      const shown = co2eShadowShown(outcome.sensitivity.shadowPrices)!;
      expect(shown).toEqual({ limit: cap, shadowPrice: round(shadow!.shadowPrice, 6), perTonneCo2e: round(-shadow!.shadowPrice * 1000, 2) });
      // The mix people see and save: exactly within the cap, in decimal arithmetic.
      const units = roundedMix(highs, problem, outcome.solution.x);
      const footprint = co2eCoefficients(problem.candidates);
      expect({ label, broken: exactBreaks(problem, Array.from(units, (u) => u / 10_000)) }).toEqual({ label, broken: [] });
      expect({ label, underCap: activity(footprint, Array.from(units, (u) => u / 10_000)) <= cap + 1e-9 * Math.max(1, cap) }).toEqual({ label, underCap: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  test("a cap below the least-CO2e mix is infeasible; the CO2e cap is a repair, to the least footprint rounded up at 4 decimals, and GLPK agrees on both sides", async () => {
    let checked = 0;
    for (const { label, base, least } of cappedProblems()) {
      const cap = least - Math.max(1, Math.abs(least) * 0.05);
      const problem = withCo2eCap(base, cap);
      const outcome = solveLeastCost(highs, problem);
      expect({ label, status: outcome.status, glpk: await glpkSolve(problem) }).toEqual({ label, status: "infeasible", glpk: null });
      if (outcome.status !== "infeasible") continue;
      const repair = outcome.conflicts.find((c) => c.limit.kind === "co2e");
      expect({ label, repair: repair && { bound: repair.bound, value: repair.value, alone: repair.alone } }).toEqual({ label, repair: { bound: "max", value: cap, alone: true } });
      const best = repair!.bestAchievable!;
      expect({ label, upFromLeast: best >= least - 1e-9 * Math.max(1, least) && best <= least + 1e-4 + 1e-9 * Math.max(1, least) }).toEqual({ label, upFromLeast: true });
      expect({ label, fourDecimals: decimalOf(best).toString() === decimalOf(Math.round(best * 1e4) / 1e4).toString() }).toEqual({ label, fourDecimals: true });
      expect({ label, feasibleThere: (await glpkSolve(withCo2eCap(base, best))) !== null }).toEqual({ label, feasibleThere: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  test("on the frontier, each point's cost is the capped optimum at its footprint", () => {
    for (const { label, candidates, constraints, base } of [...cappedProblems()].slice(0, 30)) {
      const frontier = frontierOf(highs, { candidates, constraints, points: 5 });
      if (frontier.status !== "optimal") continue;
      for (const p of frontier.points) expect({ label, same: close(p.cost, optimumAt(base, p.co2e)!) }).toEqual({ label, same: true });
    }
  });
});
