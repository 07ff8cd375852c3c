/**
 * Plans take what one formula's optimization takes (issues 31, 32): `candidates=all` (every in-stock
 * ingredient of the workspace a candidate of every line) and `maxCo2e` (a cap on the plan's average
 * footprint, Σ_f tons_f × Σ_i co2e_i × x_{f,i} × 10 ≤ V × totalTons), with the cap's shadow price as
 * the cost of a tonne of CO2e abated and a cap below the least footprint answered as infeasible with its
 * repair. Every optimum is proven against GLPK on the plan's LP, written here from that formula.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { everyIngredient } from "../src/optimize/candidates.ts";
import type { DenseLp } from "../src/optimize/lp.ts";
import { buildProblem } from "../src/optimize/model.ts";
import type { PlanLine } from "../src/optimize/plan-lp.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import type { PlanResult } from "../src/schemas/plans.ts";
import type { IngredientDetail } from "../src/store/ingredients.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";
import { denseplan } from "./helpers/plan-problems.ts";
import { openTestStore } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let db: AdminStore;
let details: IngredientDetail[];
const lines = [{ formula: "broiler-starter", tons: 1200 }, { formula: "broiler-grower", tons: 3000 }, { formula: "layer-phase-1", tons: 800 }];
const TOTAL = 5000;

beforeAll(async () => {
  t = await startTestServer();
  db = await openTestStore(t.dataPath);
  await db.seedDemo("2026-11-23T08:00:00.000Z");
  read = t.key();
  const write = t.key({ write: true });
  for (const [id, body] of [["three", { name: "Three", lines }], ["starter", { name: "Starter", lines: lines.slice(0, 1) }]] as const) {
    expect((await t.request("PUT", `/v1/plans/${id}`, { key: write, body })).status).toBe(201);
  }
  details = await db.listIngredientDetails(1);
});
afterAll(async () => {
  await db.close();
  await t.stop();
});

async function optimized(id: string, query = ""): Promise<PlanResult> {
  const res = await t.request("GET", `/v1/plans/${id}/optimize${query}`, { key: read });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

/** The plan's lines as GLPK sees them: section 11's candidates (or every in-stock ingredient), unknown footprints held under a cap. */
async function planLines(of: typeof lines, all: boolean, capped: boolean): Promise<PlanLine[]> {
  const byName = new Map(details.map((i) => [i.name, i]));
  const options = all ? everyIngredient(NO_OPTIONS, details) : NO_OPTIONS;
  const out: PlanLine[] = [];
  for (const l of of) {
    const f = await db.requireFormula(1, l.formula);
    const candidates = candidatesOf(f, (n) => byName.get(n) ?? null, options).map((c) => (capped && c.co2e == null ? { ...c, held: true } : c));
    out.push({ tons: l.tons, problem: buildProblem(candidates, f.constraints) });
  }
  return out;
}
/** Column k's kg CO2e in the whole plan per percent: tons_f × co2e_i × 10 (kg per tonne per percent) / 100 × 100. */
const footprintRow = (pl: PlanLine[]) => Float64Array.from(pl.flatMap((l) => l.problem.candidates.map((c) => l.tons * (c.co2e ?? 0) * 10)));
/** The plan's LP with the cap row Σ tons × co2e × x × 10 ≤ V × totalTons (in kg over the whole plan). */
function cappedLp(pl: PlanLine[], cap: number, tons: number): DenseLp {
  const lp = denseplan(pl, []);
  return { ...lp, rows: [...lp.rows, { coefficients: footprintRow(pl), lower: -Infinity, upper: cap * tons }] };
}
/** The least average footprint any plan meeting every limit reaches, kg CO2e per tonne (GLPK). */
async function leastFootprint(pl: PlanLine[], tons: number): Promise<number> {
  const lp = denseplan(pl, []);
  return (await glpkSolve({ ...lp, cost: Array.from(footprintRow(pl)) }))!.z / tons;
}
/**
 * Rounding each formula's mix so every limit holds costs a little over the LP optimum: at most 0.20 per
 * tonne for one formula (optimize-proofs); in a plan each line's share of the supply and of the cap is
 * held too, measured at 0.28 per tonne on the demo under a cap. 0.50 per tonne bounds it here.
 */
const ROUNDING = 0.5 * TOTAL;

describe("plans with maxCo2e", () => {
  test("a binding cap: the optimum is GLPK's under it, the mixes shown keep it, its shadow price is the cost's slope there (GLPK either side)", async () => {
    const free = await optimized("three");
    expect(free.co2e).toBeUndefined();
    const pl = await planLines(lines, false, true);
    const least = await leastFootprint(pl, TOTAL);
    expect(free.co2ePerTon!).toBeGreaterThan(least + 1);
    const cap = Math.round(((free.co2ePerTon! + least) / 2) * 10) / 10;
    const r = await optimized("three", `?maxCo2e=${cap}`);
    expect(r).toMatchObject({ status: "optimal", conflicts: [] });
    const z = (await glpkSolve(cappedLp(pl, cap, TOTAL)))!.z;
    expect(r.cost!).toBeGreaterThanOrEqual(z - 0.01);
    expect(r.cost!).toBeLessThanOrEqual(z + ROUNDING);
    // The cap holds on the mixes shown (their footprint, recomputed here from the shown percents).
    const co2e = new Map(details.map((i) => [i.name, i.co2e ?? NaN]));
    const kg = r.formulas.reduce((s, f) => s + f.tons * f.ingredients.reduce((k, i) => k + i.percent * co2e.get(i.name)! * 10, 0), 0);
    expect(kg / TOTAL).toBeLessThanOrEqual(cap + 1e-9);
    expect(r.co2ePerTon!).toBeLessThanOrEqual(cap);
    // d(plan cost)/d(cap) per tonne of feed lies between GLPK's slopes just below and just above the cap.
    const step = 0.05;
    const below = (z - (await glpkSolve(cappedLp(pl, cap - step, TOTAL)))!.z) / step / TOTAL;
    const above = ((await glpkSolve(cappedLp(pl, cap + step, TOTAL)))!.z - z) / step / TOTAL;
    const slack = 5e-6 + (2e-9 * z) / step / TOTAL;
    expect(r.co2e!.limit).toBe(cap);
    expect(r.co2e!.shadowPrice).toBeLessThan(0);
    expect(below).toBeLessThanOrEqual(r.co2e!.shadowPrice + slack);
    expect(r.co2e!.shadowPrice).toBeLessThanOrEqual(above + slack);
    expect(Math.abs(r.co2e!.perTonneCo2e + r.co2e!.shadowPrice * 1000)).toBeLessThanOrEqual(0.01);
  });

  test("a one-formula plan's cap has the formula's own shadow price (the same LP, per tonne of feed)", async () => {
    const alone = (await (await t.request("GET", "/v1/formulas/broiler-starter/optimize", { key: read })).json()).data;
    const pl = await planLines(lines.slice(0, 1), false, true);
    const cap = Math.round(((alone.optimized.co2ePerTon + (await leastFootprint(pl, 1200))) / 2) * 10) / 10;
    const formula = (await (await t.request("GET", `/v1/formulas/broiler-starter/optimize?maxCo2e=${cap}`, { key: read })).json()).data;
    const plan = await optimized("starter", `?maxCo2e=${cap}`);
    expect(formula.shadowPrices.co2e.shadowPrice).toBeLessThan(0);
    expect(Math.abs(plan.co2e!.shadowPrice - formula.shadowPrices.co2e.shadowPrice)).toBeLessThanOrEqual(2e-6);
  });

  test("a cap below the least footprint: infeasible, the cap among the repairs with the least footprint (GLPK) as bestAchievable", async () => {
    const pl = await planLines(lines, false, true);
    const least = await leastFootprint(pl, TOTAL);
    const r = await optimized("three", `?maxCo2e=${Math.floor(least - 5)}`);
    expect(r).toMatchObject({ status: "infeasible", cost: null, co2ePerTon: null, usage: [] });
    const repair = r.conflicts.find((c) => c.kind === "co2e")!;
    expect(repair).toMatchObject({ kind: "co2e", bound: "max", limit: Math.floor(least - 5) });
    // Rounded up at 4 decimals: feasible there, and within 0.0001 of the true least.
    expect(repair.bestAchievable!).toBeGreaterThanOrEqual(least - 1e-9);
    expect(repair.bestAchievable! - least).toBeLessThanOrEqual(1e-4 + 1e-9);
    expect(await glpkSolve(cappedLp(pl, repair.bestAchievable! + 1e-6, TOTAL))).not.toBeNull();
  });
});

describe("plans with candidates=all", () => {
  test("every in-stock ingredient a candidate of every line: GLPK's optimum over them, no dearer than the formulas' own candidates", async () => {
    const own = await optimized("three");
    const all = await optimized("three", "?candidates=all");
    const z = (await glpkSolve(denseplan(await planLines(lines, true, false), [])))!.z;
    expect(all.cost!).toBeGreaterThanOrEqual(z - 0.01);
    expect(all.cost!).toBeLessThanOrEqual(z + ROUNDING);
    expect(z).toBeLessThanOrEqual(own.cost! + 0.01);
    // Both together: the origin of soybean meal is a candidate, so a cap can trade it.
    const both = await optimized("three", `?candidates=all&maxCo2e=${Math.round(own.co2ePerTon! * 0.8)}`);
    expect(both.status).toBe("optimal");
    expect(both.co2ePerTon!).toBeLessThanOrEqual(Math.round(own.co2ePerTon! * 0.8));
  });

  test("the query's rules: candidates formula|all, maxCo2e a number; the CLI's --candidates and --max-co2e give the API's data", async () => {
    const bad = async (q: string) => (await (await t.request("GET", `/v1/plans/three/optimize?${q}`, { key: read })).json()).message;
    expect(await bad("candidates=some")).toBe("candidates must be formula or all");
    expect(await bad("maxCo2e=lots")).toBe("maxCo2e must be a number from -1000000 to 1000000 (kg CO2e per tonne of feed)");
    const api = await optimized("three", "?candidates=all&maxCo2e=600");
    const json = await cli(["plan", "optimize", "three", "--candidates", "all", "--max-co2e", "600", "--json", "--data", t.dataPath]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const table = await cli(["plan", "optimize", "three", "--candidates", "all", "--max-co2e", "600", "--data", t.dataPath]);
    expect(table.stdout).toMatch(/^Footprint \d+\.\d kg CO2e per tonne/m);
  });
});
