/**
 * The rounded optimum of formulas too large for the window search (docs/decisions.md#least-cost-formulation,
 * "How the rounding is chosen"): past 150 nonzeros the cheapest mix of the window is not searched for, and
 * the former rounding (plain, or the LP re-solved with its limits pulled in) is made cheaper by exchanges.
 * Judged apart from src/ in exact rational arithmetic (helpers/lp-problems.ts): every limit holds, every
 * percent stays within 0.001 % of the unrounded one (or no further than the former rounding put it), and
 * no cheaper mix is one exchange away within that window (one grid unit, 0.0001 %, moved from a candidate
 * of the optimum's mix to a cheaper one breaks a limit). Before, the former rounding stood: on these formulas 132 to 649 such
 * moves each kept every limit and made the mix cheaper.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { buildProblem, inMix, type LeastCostProblem } from "../src/optimize/model.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import { roundedMix } from "../src/optimize/rounding.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { solveLeastCost } from "../src/optimize/solve.ts";
import { tooLarge } from "../src/optimize/window-rounding.ts";
import { largeFormula, type LargeSize } from "./helpers/large-formula.ts";
import { exactBreaks, keepsAsShown } from "./helpers/lp-problems.ts";

let highs: Highs;
beforeAll(async () => {
  highs = await solverRuntime();
});

const percentsOf = (units: ArrayLike<number>) => Array.from(units, (u) => u / 10_000);
/** Cost in exact integers: Σ price (to 6 decimals) × units. */
const costOf = (problem: LeastCostProblem, units: ArrayLike<number>) => problem.candidates.reduce((s, c, j) => s + BigInt(Math.round(c.price * 1e6)) * BigInt(units[j]!), 0n);

/** A generated formula's problem and its unrounded optimum, checked to be past the window search's size. */
function large(size: LargeSize, seed: number): { problem: LeastCostProblem; x: number[] } {
  const { formula, ingredients } = largeFormula(size, seed);
  const byName = new Map(ingredients.map((i) => [i.name, i]));
  const problem = buildProblem(candidatesOf(formula, (name) => byName.get(name) ?? null, NO_OPTIONS), formula.constraints);
  const outcome = solveLeastCost(highs, problem);
  if (outcome.status !== "optimal") throw new Error(`seed ${seed}: ${outcome.status}`);
  const x = Array.from(outcome.solution.x);
  expect({ seed, tooLarge: tooLarge(problem, x) }).toEqual({ seed, tooLarge: true });
  return { problem, x };
}

describe("the rounded optimum of a formula too large for the window search", () => {
  test("keeps every limit exactly and each percent in its window, and no exchange of one grid unit to a cheaper candidate of the mix within the window keeps them (nutrient and inclusion limits, 40 × 20 to 80 × 40)", () => {
    const sizes: [LargeSize, number][] = [
      [{ candidates: 40, nutrients: 20, limits: 20, ratios: 0 }, 1],
      [{ candidates: 60, nutrients: 30, limits: 30, ratios: 0 }, 2],
      [{ candidates: 60, nutrients: 30, limits: 30, ratios: 0 }, 3],
      [{ candidates: 80, nutrients: 40, limits: 40, ratios: 0 }, 4],
    ];
    for (const [size, seed] of sizes) {
      const { problem, x } = large(size, seed);
      const ours = roundedMix(highs, problem, x);
      expect({ seed, sum: ours.reduce((s, u) => s + u, 0), broken: exactBreaks(problem, percentsOf(ours)) }).toEqual({ seed, sum: 1_000_000, broken: [] });
      const cols = problem.candidates.flatMap((c, j) => (inMix(x, j) && !c.held ? [j] : []));
      // Each percent within 0.001 % (10 grid units) of the unrounded one, or no further than the former rounding's.
      const former = roundedMix(highs, problem, x, { cheapest: false });
      const reach = (j: number) => Math.max(10, Math.abs(former[j]! - x[j]! * 10_000));
      const within = (units: ArrayLike<number>, j: number) => Math.abs(units[j]! - x[j]! * 10_000) <= reach(j) + 1e-9;
      expect({ seed, outside: cols.filter((j) => !within(ours, j)).map((j) => problem.candidates[j]!.name) }).toEqual({ seed, outside: [] });
      const cheaper: string[] = [];
      for (const from of cols) {
        for (const to of cols) {
          if (ours[from]! < 1 || problem.candidates[to]!.price >= problem.candidates[from]!.price) continue;
          const moved = Int32Array.from(ours);
          moved[from]! -= 1;
          moved[to]! += 1;
          if (!within(moved, from) || !within(moved, to)) continue;
          if (exactBreaks(problem, percentsOf(moved)).length === 0) cheaper.push(`${problem.candidates[from]!.name} → ${problem.candidates[to]!.name}`);
        }
      }
      expect({ seed, cheaper }).toEqual({ seed, cheaper: [] });
    }
  }, 120_000);

  test("with ratio limits: every limit kept exactly and as a saved formula's warnings read it, no dearer than the former rounding", () => {
    for (const seed of [7, 8]) {
      const { problem, x } = large({ candidates: 60, nutrients: 30, limits: 30, ratios: 6 }, seed);
      const ours = roundedMix(highs, problem, x);
      const former = roundedMix(highs, problem, x, { cheapest: false });
      expect({ seed, keeps: keepsAsShown(problem, ours), noDearer: costOf(problem, ours) <= costOf(problem, former) }).toEqual({ seed, keeps: true, noDearer: true });
    }
  }, 60_000);
});
