/**
 * GET /v1/formulas/:id/sweep and `feedbase formula sweep` on the demo workspace: the shape, the evenly
 * spaced points, breakpoints inside the range, what-if prices and stock, an infeasible formula, the
 * query's rules and messages, and the CLI's table and JSON.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { AdminStore } from "../src/admin/ops.ts";
import type { SweepResult } from "../src/schemas/sweep.ts";
import { buildProblem } from "../src/optimize/model.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import { lpOf } from "../src/optimize/solve.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let db: AdminStore;
const tmp = tempDir();

beforeAll(async () => {
  t = await startTestServer();
  db = await openTestStore(t.dataPath);
  await db.seedDemo("2026-11-23T08:00:00.000Z");
  read = t.key();
  // A formula no mix can meet: protein above what any of its candidates has, whatever the demo's values.
  const broiler = await db.requireFormula(1, "broiler-starter");
  const details = new Map((await db.listIngredientDetails(1)).map((i) => [i.name, i]));
  const mostProtein = Math.max(...broiler.ingredients.map((i) => details.get(i.name)?.nutrients.CP ?? 0));
  const file = `${tmp.dir}/impossible.json`;
  writeFileSync(file, JSON.stringify([{ id: "impossible", name: "Impossible", species: "Poultry", subcategory: "Test", batchSize: 1000, ingredients: broiler.ingredients.map((i) => ({ name: i.name, percent: i.percent })), constraints: { nutrients: [{ key: "CP", min: mostProtein + 1, max: null }], ingredients: [] } }]));
  const imported = await cli(["import", "formulas", file, "--data", t.dataPath]);
  expect(imported.code).toBe(0);
});
afterAll(async () => {
  await db.close();
  await t.stop();
  tmp.cleanup();
});

const get = (path: string) => t.request("GET", path, { key: read });
async function sweepOf(id: string, query: string): Promise<SweepResult> {
  const res = await get(`/v1/formulas/${id}/sweep?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
}
async function problem(path: string): Promise<[number, string]> {
  const res = await get(path);
  return [res.status, ((await res.json()) as { message: string }).message];
}
const soy = encodeURIComponent("Soybean meal 48%");

describe("GET /v1/formulas/:id/sweep", () => {
  test("a read key gets evenly spaced points (51 by default) and ascending breakpoints strictly inside the range", async () => {
    const s = await sweepOf("broiler-starter", `ingredient=${soy}&from=200&to=800`);
    expect(Object.keys(s)).toEqual(["id", "name", "ingredient", "points", "breakpoints", "status"]);
    expect(s).toMatchObject({ id: "broiler-starter", ingredient: "Soybean meal 48%", status: "optimal" });
    expect(s.points.map((p) => p.price)).toEqual(Array.from({ length: 51 }, (_, k) => Math.round((200 + k * 12) * 100) / 100));
    expect(s.breakpoints.length).toBeGreaterThan(0);
    for (const b of s.breakpoints) expect(b.price > 200 && b.price < 800 && b.percentBelow > b.percentAbove).toBe(true);
    // The cost rises with the price and by less where less is used: concave.
    for (let k = 1; k < s.points.length; k++) expect(s.points[k]!.costPerTon!).toBeGreaterThanOrEqual(s.points[k - 1]!.costPerTon! - 0.01);
    // At today's price the sweep's point is the optimum an independent solver (GLPK) finds, and the
    // optimization's saved-ready mix (rounded so every limit holds) costs no less than it.
    const today = (await db.findIngredient(1, "Soybean meal 48%"))!.price;
    const at = await sweepOf("broiler-starter", `ingredient=${soy}&from=${today}&to=${today + 1}&points=2`);
    const details = new Map((await db.listIngredientDetails(1)).map((i) => [i.name, i]));
    const candidates = candidatesOf(await db.requireFormula(1, "broiler-starter"), (name) => details.get(name) ?? null, NO_OPTIONS);
    const problem = buildProblem(candidates, (await db.requireFormula(1, "broiler-starter")).constraints);
    const glpk = (await glpkSolve(lpOf(problem)))!;
    const swept = candidates.findIndex((c) => c.name === "Soybean meal 48%");
    // Shown to 4 decimals on a mix whose percents sum to 100: each percent within 0.0002 of the exact, the cost within that of every row.
    const slack = candidates.reduce((sum, c) => sum + (c.price * 0.0002) / 100, 0.005);
    expect(Math.abs(at.points[0]!.percent! - glpk.x[swept]!)).toBeLessThanOrEqual(0.0002);
    expect(Math.abs(at.points[0]!.costPerTon! - glpk.z)).toBeLessThanOrEqual(slack);
    const optimized = (await (await get("/v1/formulas/broiler-starter/optimize")).json()).data.optimized;
    expect(optimized.costPerTon).toBeGreaterThanOrEqual(at.points[0]!.costPerTon! - slack);
  });

  test("what-ifs apply: an extra candidate via include, another ingredient's price; an out-of-stock swept ingredient is 0 % unless released", async () => {
    const base = await sweepOf("broiler-starter", `ingredient=Maize&from=100&to=400&points=5`);
    const dearSoy = await sweepOf("broiler-starter", `ingredient=Maize&from=100&to=400&points=5&price=${soy}%3D900`);
    expect(dearSoy.points.map((p) => p.costPerTon)).not.toEqual(base.points.map((p) => p.costPerTon));
    const wheat = await sweepOf("broiler-starter", `ingredient=Wheat&from=50&to=400&points=5&include=Wheat`);
    expect(wheat.points[0]!.percent!).toBeGreaterThan(wheat.points[4]!.percent!);
    const out = (await db.listIngredientDetails(1)).find((i) => !i.inStock);
    if (out) {
      const name = encodeURIComponent(out.name);
      const held = await sweepOf("broiler-starter", `ingredient=${name}&from=0&to=10&points=3&include=${name}`);
      expect(held.points.map((p) => p.percent)).toEqual([0, 0, 0]);
      expect(held.breakpoints).toEqual([]);
    }
  });

  test("a formula no mix can meet is infeasible at every price", async () => {
    const s = await sweepOf("impossible", "ingredient=Maize&from=0&to=100&points=3");
    expect(s).toMatchObject({ status: "infeasible", breakpoints: [], points: [0, 50, 100].map((price) => ({ price, percent: null, costPerTon: null })) });
  });

  test("an unknown formula is 404 before any 400; each rule of the query has its message", async () => {
    expect(await problem("/v1/formulas/nope/sweep?from=x")).toEqual([404, "Formula not found: nope"]);
    const base = "/v1/formulas/broiler-starter/sweep";
    expect(await problem(`${base}?from=1&to=2`)).toEqual([400, "ingredient is required"]);
    expect(await problem(`${base}?ingredient=Maize&from=-1&to=2`)).toEqual([400, "from must be a number >= 0"]);
    expect(await problem(`${base}?ingredient=Maize&from=5&to=2`)).toEqual([400, "from must be less than to"]);
    expect(await problem(`${base}?ingredient=Maize&from=1&to=2000000000`)).toEqual([400, "to must be a number <= 1000000000"]);
    expect(await problem(`${base}?ingredient=Maize&from=1&to=2&points=1`)).toEqual([400, "points must be an integer from 2 to 201"]);
    expect(await problem(`${base}?ingredient=Maize&from=1&to=2&points=202`)).toEqual([400, "points must be an integer from 2 to 201"]);
    expect(await problem(`${base}?ingredient=Maiz&from=1&to=2`)).toEqual([400, "Unknown ingredient: Maiz"]);
    const broiler = await db.requireFormula(1, "broiler-starter");
    const named = new Set([...broiler.ingredients.map((i) => i.name), ...broiler.constraints.ingredients.map((i) => i.name)]);
    const outsider = (await db.listIngredientDetails(1)).find((i) => !named.has(i.name))!.name;
    expect(await problem(`${base}?ingredient=${encodeURIComponent(outsider)}&from=1&to=2`)).toEqual([400, `Not a candidate: ${outsider}`]);
    expect(await problem(`${base}?ingredient=Maize&from=1&to=2&price=Maize%3D3`)).toEqual([400, "price must not name the swept ingredient"]);
  });
});

describe("feedbase formula sweep", () => {
  test("--json is the API's data; the table lists the points and the breakpoints", async () => {
    const api = await sweepOf("broiler-starter", `ingredient=${soy}&from=200&to=800&points=11`);
    const args = ["formula", "sweep", "broiler-starter", "--ingredient", "Soybean meal 48%", "--from", "200", "--to", "800", "--points", "11", "--data", t.dataPath];
    const json = await cli([...args, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const table = await cli(args);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("PRICE/T  PERCENT");
    for (const b of api.breakpoints) expect(table.stdout).toContain(b.price.toFixed(2));
    const bad = await cli(["formula", "sweep", "broiler-starter", "--ingredient", "Maize", "--from", "5", "--to", "2", "--data", t.dataPath]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--from must be less than --to");
  });
});
