/**
 * Plans announce their writes and guard what they name (issue 31): `plan.updated` {id, name, timestamp}
 * reaches webhooks that opted in, for PUT /v1/plans/:id and for each plan of `plan import`, never with
 * `--no-events` and never for `plan delete`; `formula delete` and `ingredient delete` refuse what a plan
 * names, naming the plans, and go through once the plans are gone. Real server, real webhook receivers.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

const tmp = tempDir();
let t: TestServer;
let read: string;
let write: string;
let optedIn: Recorder;
let byDefault: Recorder;

const formula = (id: string) => ({
  id,
  name: id,
  species: "Poultry",
  subcategory: "Test",
  batchSize: 1000,
  ingredients: [{ name: "Maize", percent: 60 }, { name: "Soy", percent: 40 }],
  constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [] },
});
const PLAN = { name: "December", lines: [{ formula: "starter", tons: 100 }], supply: [{ name: "Soy", minTons: null, maxTons: 50 }] };

beforeAll(async () => {
  t = await startTestServer({ webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
  read = t.key();
  write = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  writeFileSync(csv, "name,category,price,inStock,CP\nMaize,Cereals,200,yes,8.5\nSoy,Protein meals,400,yes,46\nWheat,Cereals,210,yes,12.5\n");
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
  const formulas = join(tmp.dir, "f.json");
  writeFileSync(formulas, JSON.stringify([formula("starter"), formula("grower")]));
  expect((await cli(["import", "formulas", formulas, "--no-events", "--data", t.dataPath])).code).toBe(0);
  optedIn = startRecorder();
  byDefault = startRecorder();
  expect((await cli(["webhook", "add", optedIn.url, "--events", "plan.updated", "--data", t.dataPath])).code).toBe(0);
  expect((await cli(["webhook", "add", byDefault.url, "--data", t.dataPath])).code).toBe(0);
});
afterAll(async () => {
  await Promise.all([optedIn.stop(), byDefault.stop()]);
  await t.stop();
  tmp.cleanup();
});

const events = async () => ((await (await t.request("GET", "/v1/events", { key: read })).json()).data as { type: string; payload: { id: string; name: string } }[]).filter((e) => e.type === "plan.updated");

describe("plan.updated", () => {
  test("PUT /v1/plans/:id fires it ({id, name, timestamp}) to webhooks that named it, on create and on replace", async () => {
    const created = await t.request("PUT", "/v1/plans/december", { key: write, body: PLAN });
    expect(created.status).toBe(201);
    const stamp = (await created.json()).timestamp;
    expect((await t.request("PUT", "/v1/plans/december", { key: write, body: { ...PLAN, name: "December v2" } })).status).toBe(200);
    await eventually(() => optedIn.requests.length === 2);
    expect(optedIn.requests.map((r) => r.headers["x-webhook-event"])).toEqual(["plan.updated", "plan.updated"]);
    expect(optedIn.requests[0]!.json).toEqual({ id: "december", name: "December", timestamp: stamp });
    expect(optedIn.requests[1]!.json).toMatchObject({ id: "december", name: "December v2" });
    // Refused bodies write nothing and fire nothing.
    expect((await t.request("PUT", "/v1/plans/bad", { key: write, body: { ...PLAN, lines: [] } })).status).toBe(400);
    expect((await events()).map((e) => e.payload.id)).toEqual(["december", "december"]);
  });

  test("plan import fires one per plan in file order; --no-events fires none; plan delete fires nothing", async () => {
    const file = join(tmp.dir, "plans.json");
    writeFileSync(file, JSON.stringify([{ id: "jan", ...PLAN, name: "January" }, { id: "feb", ...PLAN, name: "February", lines: [{ formula: "grower", tons: 80 }] }]));
    expect(await cli(["plan", "import", file, "--data", t.dataPath])).toMatchObject({ code: 0, stdout: "Imported 2 plans\n" });
    await eventually(() => optedIn.requests.length === 4);
    expect(optedIn.requests.slice(2).map((r) => r.json.id)).toEqual(["jan", "feb"]);
    expect(await cli(["plan", "import", file, "--replace", "--no-events", "--data", t.dataPath])).toMatchObject({ code: 0, stdout: "Imported 2 plans\n" });
    expect((await cli(["plan", "delete", "feb", "--data", t.dataPath])).code).toBe(0);
    expect((await events()).map((e) => e.payload.id)).toEqual(["december", "december", "jan", "feb"]);
    // The events are in the data before any delivery; a webhook added without --events never gets the opt-in one.
    expect(byDefault.requests).toEqual([]);
    expect((await cli(["plan", "import", "--help"])).stdout).toContain("--no-events");
  });
});

describe("deletes refuse what a plan names", () => {
  test("formula delete and ingredient delete name the plans (exit 1, nothing deleted); once the plans are gone they go through", async () => {
    const formulaDelete = await cli(["formula", "delete", "starter", "--data", t.dataPath]);
    expect(formulaDelete.code).toBe(1);
    expect(formulaDelete.stderr).toContain("Formula starter is used by 2 plans: december, jan (delete or change them first)");
    // Soy is in both formulas' compositions: the formulas are named first. Wheat is in no formula, only in a supply row.
    const wheatPlan = { ...PLAN, supply: [{ name: "Wheat", minTons: 1, maxTons: null }] };
    expect((await t.request("PUT", "/v1/plans/wheat", { key: write, body: wheatPlan })).status).toBe(201);
    const ingredientDelete = await cli(["ingredient", "delete", "Wheat", "--data", t.dataPath]);
    expect(ingredientDelete.code).toBe(1);
    expect(ingredientDelete.stderr).toContain("Ingredient Wheat is used by 1 plan: wheat (delete or change it first)");
    expect((await t.request("GET", "/v1/formulas/starter", { key: read })).status).toBe(200);
    expect((await t.request("GET", "/v1/ingredients/Wheat", { key: read })).status).toBe(200);
    for (const id of ["december", "jan", "wheat"]) expect((await cli(["plan", "delete", id, "--data", t.dataPath])).code).toBe(0);
    expect((await cli(["formula", "delete", "starter", "--data", t.dataPath])).code).toBe(0);
    expect((await cli(["ingredient", "delete", "Wheat", "--data", t.dataPath])).code).toBe(0);
  });
});
