/**
 * Differences add up as shown: a change is the difference of the rounded figures shown beside it, and
 * the same change of the same row has the same figure in GET /v1/formulas/:id/cost and in
 * GET /v1/reports/cost-changes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";

let t: TestServer;
let key: string;

// 25 % of 1000 kg is 250 kg: at 10.02 per ton it costs 2.505 (shown 2.51), at 10.05 2.5125 (2.51); the
// row's change as shown is 0.00, while the cost of the price step alone, 250 kg × 0.03, is 0.0075 (0.01).
// The other row moves the total so the formula is in the report at all.
const FORMULA = { id: "halves", name: "Halves", species: "Swine", subcategory: "Test", batchSize: 1000, ingredients: [{ name: "Oddly priced", percent: 25 }, { name: "Mover", percent: 75 }] };

beforeAll(async () => {
  t = await startTestServer();
  key = t.key();
  const write = t.key({ write: true });
  for (const [name, price] of [["Oddly priced", 10.02], ["Mover", 100]] as const) {
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name, price, category: "Feed" } })).status).toBe(201);
  }
  const file = join(t.dataPath, "..", "halves.json");
  writeFileSync(file, JSON.stringify([FORMULA]));
  expect((await cli(["import", "formulas", file, "--data", t.dataPath])).code).toBe(0);
  for (const [name, price] of [["Oddly priced", 10.05], ["Mover", 101]] as const) {
    expect((await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key: write, body: { price } })).status).toBe(200);
  }
});
afterAll(() => t.stop());

test("a driver's change in the cost-changes report is its row's change in the formula's cost, both from the rounded row costs", async () => {
  const cost = (await (await t.request("GET", "/v1/formulas/halves/cost", { key })).json()).data;
  const report = (await (await t.request("GET", "/v1/reports/cost-changes", { key })).json()).data;
  const row = cost.ingredients.find((i: { name: string }) => i.name === "Oddly priced");
  expect(row.change).toBe(0);
  const moved = report.find((r: { id: string }) => r.id === "halves");
  expect(moved.change).toBe(cost.change);
  // Each driver is a row whose cost moved as shown, with that row's figure (before: "Oddly priced" +0.01 here, 0.00 there).
  for (const d of moved.drivers) expect(d.change).toBe(cost.ingredients.find((i: { name: string }) => i.name === d.name).change);
  expect(moved.drivers.map((d: { name: string }) => d.name)).toEqual(["Mover"]);
});
