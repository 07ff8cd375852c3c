/**
 * Production plans on the demo workspace, over HTTP and the CLI: PUT (201 then 200), GET, the list, the
 * body's rules and messages, the optimization (no supply = each formula alone, a binding max supply with
 * its shadow price against a re-solve, infeasible with supply repairs), and plan import, list, show,
 * optimize --save-suffix and delete.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { AdminStore } from "../src/admin/ops.ts";
import { round } from "../src/domain/formula-math.ts";
import { buildProblem } from "../src/optimize/model.ts";
import type { PlanLine, SupplyRow } from "../src/optimize/plan-lp.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import type { PlanResult } from "../src/schemas/plans.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { denseplan } from "./helpers/plan-problems.ts";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let write: string;
let db: AdminStore;
const tmp = tempDir();
const lines = [{ formula: "broiler-starter", tons: 1200 }, { formula: "broiler-grower", tons: 3000 }, { formula: "layer-phase-1", tons: 800 }];

beforeAll(async () => {
  t = await startTestServer();
  db = await openTestStore(t.dataPath);
  await db.seedDemo("2026-11-23T08:00:00.000Z");
  read = t.key();
  write = t.key({ write: true });
});
afterAll(async () => {
  await db.close();
  await t.stop();
  tmp.cleanup();
});

const put = (id: string, body: unknown) => t.request("PUT", `/v1/plans/${id}`, { key: write, body });
const get = (path: string) => t.request("GET", path, { key: read });
async function optimized(id: string): Promise<PlanResult> {
  const res = await get(`/v1/plans/${id}/optimize`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
}
/** The plan's lines as the LP sees them, read from the store (section 11's candidates of each formula). */
async function planLines(): Promise<PlanLine[]> {
  const details = new Map((await db.listIngredientDetails(1)).map((i) => [i.name, i]));
  const out: PlanLine[] = [];
  for (const l of lines) {
    const f = await db.requireFormula(1, l.formula);
    out.push({ tons: l.tons, problem: buildProblem(candidatesOf(f, (n) => details.get(n) ?? null, NO_OPTIONS), f.constraints) });
  }
  return out;
}
/** GLPK's optimal plan cost with these supply rows; null when infeasible. */
async function glpkPlanCost(supply: SupplyRow[]): Promise<number | null> {
  return (await glpkSolve(denseplan(await planLines(), supply)))?.z ?? null;
}
async function problem(body: unknown): Promise<[number, string]> {
  const res = await put("bad", body);
  return [res.status, ((await res.json()) as { message: string }).message];
}

describe("plans over HTTP", () => {
  test("PUT creates (201, Location) then replaces (200, createdAt kept); GET and the list show it; a read key may not write", async () => {
    const first = await put("december", { name: "December", lines });
    expect(first.status).toBe(201);
    expect(first.headers.get("location")).toBe("/v1/plans/december");
    const created = (await first.json()).data;
    expect(created).toMatchObject({ id: "december", name: "December", lines, supply: [] });
    const again = await put("december", { name: "December", lines, supply: [{ name: "Maize", minTons: null, maxTons: 2500 }] });
    expect(again.status).toBe(200);
    const replaced = (await again.json()).data;
    expect(replaced.createdAt).toBe(created.createdAt);
    expect((await (await get("/v1/plans/december")).json()).data).toEqual(replaced);
    const list = await (await get("/v1/plans")).json();
    expect(list.data).toEqual([{ id: "december", name: "December", totalTons: 5000, formulas: 3, createdAt: created.createdAt, updatedAt: replaced.updatedAt }]);
    expect((await t.request("PUT", "/v1/plans/x", { key: read, body: { name: "X", lines } })).status).toBe(403);
    expect((await get("/v1/plans/nope")).status).toBe(404);
  });

  test("each rule of the body has its message, naming the field", async () => {
    expect(await problem({ name: "X", lines: [{ formula: "broiler-starter", tons: 0 }] })).toEqual([400, "lines[0].tons must be a number > 0"]);
    expect(await problem({ name: "X", lines: [...lines, { formula: "broiler-x", tons: 5 }] })).toEqual([400, "Unknown formula: broiler-x"]);
    expect(await problem({ name: "X", lines: [lines[0], lines[0]] })).toEqual([400, "Duplicate formula: broiler-starter"]);
    expect(await problem({ name: "X", lines: [] })).toEqual([400, "lines must have 1 to 500 entries"]);
    expect(await problem({ name: "X", lines, supply: [{ name: "Maiz", minTons: 1, maxTons: null }] })).toEqual([400, "Unknown ingredient: Maiz"]);
    expect(await problem({ name: "X", lines, supply: [{ name: "Maize", minTons: null, maxTons: null }] })).toEqual([400, "supply[0] needs minTons or maxTons"]);
    expect(await problem({ name: "X", lines, supply: [{ name: "Maize", minTons: 5, maxTons: 4 }] })).toEqual([400, "supply[0].minTons must not exceed maxTons"]);
    expect(await problem({ name: "X", lines, supply: [{ name: "Maize", maxTons: 4 }, { name: "Maize", maxTons: 5 }] })).toEqual([400, "Duplicate ingredient: Maize"]);
    expect(await problem({ name: "X", lines, colour: "red" })).toEqual([400, "Unknown field: colour"]);
  });

  test("no supply: each formula's mix and cost are its own optimum, sharing costs 0", async () => {
    expect((await put("free", { name: "Free", lines })).status).toBe(201);
    const r = await optimized("free");
    expect(r).toMatchObject({ status: "optimal", totalTons: 5000, sharingCost: 0, conflicts: [] });
    expect(r.cost).toBe(r.independentCost);
    for (const f of r.formulas) {
      const alone = (await (await get(`/v1/formulas/${f.id}/optimize`)).json()).data;
      expect(f.costPerTon).toBe(alone.optimized.costPerTon);
      expect(f.independentCostPerTon).toBe(alone.optimized.costPerTon);
      expect(f.ingredients.map((i) => [i.name, i.percent])).toEqual(alone.optimized.ingredients.filter((i: { percent: number }) => i.percent > 0).map((i: { name: string; percent: number }) => [i.name, i.percent]));
    }
  });

  test("a binding max supply: usage at the bound, a negative shadow price matching a re-solve, a sharing cost > 0", async () => {
    const free = await optimized("free");
    const maize = free.usage.find((u) => u.name === "Maize")!;
    const cap = Math.round(maize.tons * 0.8);
    await put("capped", { name: "Capped", lines, supply: [{ name: "Maize", minTons: null, maxTons: cap }] });
    const r = await optimized("capped");
    const row = r.usage.find((u) => u.name === "Maize")!;
    expect(row).toMatchObject({ maxTons: cap, bound: "max" });
    // The mixes shown are rounded to 0.0001 %, none past the plan's share of the cap: the cap holds on them
    // (within 0.001 t, the usage shown to 3 decimals), and the rounding leaves at most a hundredth of a ton unused.
    expect(row.tons).toBeLessThanOrEqual(cap + 0.001);
    expect(row.tons).toBeGreaterThanOrEqual(cap - 0.01);
    expect(row.shadowPrice!).toBeLessThan(0);
    expect(r.sharingCost!).toBeGreaterThan(0);
    // The shadow price is the plan cost's slope at the bound, by an independent solver (GLPK) re-solving the
    // plan's LP with the cap moved a tenth of a ton either way: between the slope below and the slope above.
    const step = 0.1;
    const at = (await glpkPlanCost([{ name: "Maize", minTons: null, maxTons: cap }]))!;
    const below = (at - (await glpkPlanCost([{ name: "Maize", minTons: null, maxTons: cap - step }]))!) / step;
    const above = ((await glpkPlanCost([{ name: "Maize", minTons: null, maxTons: cap + step }]))! - at) / step;
    // Shown to 2 decimals; GLPK's optimum is exact to about 1e-9 of the plan's cost, divided by the step.
    const slack = 0.005 + (2e-9 * at) / step;
    expect(below).toBeLessThanOrEqual(row.shadowPrice! + slack);
    expect(row.shadowPrice!).toBeLessThanOrEqual(above + slack);
    // The shown mixes cost no less than the LP optimum (rounding only costs), and the sharing cost is cost − independent.
    expect(r.cost!).toBeGreaterThanOrEqual(round(at, 2) - 0.01);
    expect(r.sharingCost!).toBe(round(r.cost! - r.independentCost!, 2));
  });

  test("a supply nobody can take: infeasible, the supply bound among the repairs", async () => {
    await put("glut", { name: "Glut", lines, supply: [{ name: "Salt", minTons: 4000, maxTons: null }] });
    const r = await optimized("glut");
    expect(r).toMatchObject({ status: "infeasible", cost: null, sharingCost: null, usage: [] });
    const salt = r.conflicts.find((c) => c.kind === "supply")!;
    expect(salt).toMatchObject({ kind: "supply", name: "Salt", bound: "min", limit: 4000 });
    expect(salt.bestAchievable!).toBeLessThan(4000);
  });
});

describe("feedbase plan", () => {
  test("import, list, show, optimize --json (the API's data) and --save-suffix, delete", async () => {
    const file = `${tmp.dir}/plans.json`;
    // A maize cap one ton above what the two formulas use alone: feasible by construction, whatever the demo's values.
    await put("jan-free", { name: "January", lines: lines.slice(0, 2) });
    const maize = Math.ceil((await optimized("jan-free")).usage.find((u) => u.name === "Maize")!.tons) + 1;
    writeFileSync(file, JSON.stringify([{ id: "jan", name: "January", lines: lines.slice(0, 2), supply: [{ name: "Maize", minTons: null, maxTons: maize }] }]));
    const imported = await cli(["plan", "import", file, "--data", t.dataPath]);
    expect(imported).toMatchObject({ code: 0, stdout: "Imported 1 plan\n" });
    const twice = await cli(["plan", "import", file, "--data", t.dataPath]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("Plan already exists: jan (use --replace)");
    expect((await cli(["plan", "import", file, "--replace", "--data", t.dataPath])).code).toBe(0);
    const list = await cli(["plan", "list", "--json", "--data", t.dataPath]);
    expect(list.stdout).toContain('"id":"jan"');
    const show = await cli(["plan", "show", "jan", "--data", t.dataPath]);
    expect(show.stdout).toContain("broiler-grower");
    const json = await cli(["plan", "optimize", "jan", "--json", "--data", t.dataPath]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await optimized("jan"));
    const saved = await cli(["plan", "optimize", "jan", "--save-suffix", "-jan", "--data", t.dataPath]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("Saved 2 formulas: broiler-starter-jan, broiler-grower-jan");
    const copy = (await (await get("/v1/formulas/broiler-starter-jan")).json()).data;
    expect(copy.name).toBe("Broiler starter 0-10 d (January)");
    const refused = await cli(["plan", "optimize", "jan", "--save-suffix", "-jan", "--data", t.dataPath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Formula already exists: broiler-starter-jan");
    expect((await cli(["plan", "delete", "jan", "--data", t.dataPath])).code).toBe(0);
    expect((await get("/v1/plans/jan")).status).toBe(404);
    expect((await cli(["plan", "optimize", "--help"])).stdout).toContain("--save-suffix");
  });
});
