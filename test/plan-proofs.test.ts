/**
 * Proofs that production plans are optimized right (docs/decisions.md#production-plans), on 120 seeded
 * plans of random formulas sharing ingredient names: the plan optimum equals GLPK's on the same program
 * (feasible and infeasible alike); with no supply rows it is the sum of each formula's own optimum;
 * binding min and max supplies occur; started from each line's basis alone the same optimum; and each binding supply's shadow price lies between the plan
 * cost's slopes just below and just above its bound (re-solves with the bound moved; equal to both
 * where the optimum is not degenerate).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Highs } from "highs";
import { BASIS, solveLp } from "../src/optimize/lp.ts";
import { solvePlan, type PlanLine, type SupplyRow } from "../src/optimize/plan-lp.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { lpOf } from "../src/optimize/solve.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { denseplan, PLAN_KINDS, randomPlan } from "./helpers/plan-problems.ts";

const PLANS = 120;
let highs: Highs;
const plans: { label: string; kind: string; lines: PlanLine[]; supply: SupplyRow[] }[] = [];

beforeAll(async () => {
  highs = await solverRuntime();
  /** Tons of each name at the uncoupled optimum (each line alone). */
  const usageOf = (lines: PlanLine[]) => {
    const used = new Map<string, number>();
    for (const line of lines) {
      const s = solveLp(highs, lpOf(line.problem), { ranging: false });
      if (s.status !== "optimal") continue;
      line.problem.candidates.forEach((c, j) => used.set(c.name, (used.get(c.name) ?? 0) + (line.tons * s.x[j]!) / 100));
    }
    return used;
  };
  for (let seed = 1; seed <= PLANS; seed++) {
    const kind = PLAN_KINDS[seed % PLAN_KINDS.length]!;
    plans.push({ label: `plan ${seed} (${kind})`, kind, ...randomPlan(seed, kind, usageOf) });
  }
});

const tolerance = (v: number) => 1e-6 * Math.max(1, Math.abs(v));

describe("production plans", () => {
  test("the optimum equals GLPK's on the same program, feasible or not; with no supply it is the sum of the formulas alone", async () => {
    const seen = { optimal: 0, infeasible: 0, noSupply: 0, boundMin: 0, boundMax: 0 };
    for (const p of plans) {
      const ours = solvePlan(highs, p.lines, p.supply);
      const theirs = await glpkSolve(denseplan(p.lines, p.supply));
      expect({ label: p.label, status: ours.status }).toEqual({ label: p.label, status: theirs === null ? "infeasible" : "optimal" });
      if (ours.status === "infeasible") {
        seen.infeasible++;
        continue;
      }
      seen.optimal++;
      expect({ label: p.label, same: Math.abs(ours.objective - theirs!.z) <= tolerance(ours.objective) }).toEqual({ label: p.label, same: true });
      // Started from each line's basis alone (as the plan's answer starts it), the same optimum.
      const start = p.lines.map((l) => solveLp(highs, lpOf(l.problem), { ranging: false }));
      if (start.every((s) => s.status === "optimal")) {
        const warm = solvePlan(highs, p.lines, p.supply, null, start);
        expect({ label: p.label, warm: warm.status === "optimal" && Math.abs(warm.objective - theirs!.z) <= tolerance(warm.objective) }).toEqual({ label: p.label, warm: true });
      }
      if (p.supply.length === 0) {
        seen.noSupply++;
        const alone = p.lines.reduce((sum, l) => sum + l.tons * solveLp(highs, lpOf(l.problem), { ranging: false }).objective, 0);
        expect({ label: p.label, sum: Math.abs(ours.objective - alone) <= tolerance(alone) }).toEqual({ label: p.label, sum: true });
      }
      ours.supply.forEach((s) => {
        if (s.status === BASIS.lower && Math.abs(s.dual) > 1e-6) seen.boundMin++;
        if (s.status === BASIS.upper && Math.abs(s.dual) > 1e-6) seen.boundMax++;
      });
    }
    // The generated plans cover every case the proof is about.
    expect(seen.optimal).toBeGreaterThan(60);
    expect(seen.infeasible).toBeGreaterThan(20);
    expect(seen.noSupply).toBeGreaterThan(15);
    expect(seen.boundMin).toBeGreaterThan(5);
    expect(seen.boundMax).toBeGreaterThan(5);
  });

  test("each binding supply's shadow price is the plan cost's slope at its bound (re-solves with the bound moved either way)", () => {
    let exact = 0;
    let checked = 0;
    for (const p of plans) {
      const ours = solvePlan(highs, p.lines, p.supply);
      if (ours.status === "infeasible") continue;
      ours.supply.forEach((s, k) => {
        if (s.status !== BASIS.lower && s.status !== BASIS.upper) return;
        const row = p.supply[k]!;
        const key = s.status === BASIS.lower ? "minTons" : "maxTons";
        const bound = row[key] ?? row.minTons!;
        const step = 1e-3 * Math.max(1, Math.abs(bound));
        const moved = (to: number) => {
          const supply = p.supply.map((r, i) => (i !== k ? r : row.minTons === row.maxTons ? { ...r, minTons: to, maxTons: to } : { ...r, [key]: to }));
          const again = solvePlan(highs, p.lines, supply);
          return again.status === "optimal" ? again.objective : null;
        };
        const up = moved(bound + step);
        const down = bound - step >= 0 ? moved(bound - step) : null;
        const below = down === null ? null : (ours.objective - down) / step;
        const above = up === null ? null : (up - ours.objective) / step;
        const slack = 1e-4 * Math.max(1, Math.abs(s.dual)) + tolerance(ours.objective) / step;
        // Convex in the bound: the dual is a subgradient, between the slope below and the slope above.
        if (below !== null) expect({ label: p.label, k, below: below <= s.dual + slack }).toEqual({ label: p.label, k, below: true });
        if (above !== null) expect({ label: p.label, k, above: s.dual <= above + slack }).toEqual({ label: p.label, k, above: true });
        checked++;
        if ([below, above].every((v) => v !== null && Math.abs(v - s.dual) <= slack)) exact++;
      });
    }
    expect(checked).toBeGreaterThan(15);
    // Most optima are not degenerate: there the shadow price is the slope on both sides.
    expect(exact).toBeGreaterThan(checked / 2);
  });
});
