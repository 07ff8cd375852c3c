/**
 * Formulas written over HTTP: PUT /v1/formulas/:id (the import's shape without id, 201 + Location
 * when new, 200 when replaced, the import's warnings, `formula.updated` to webhooks that opted in),
 * `import formulas` firing the same event, and `feedbase formula list|show|optimize` printing
 * nutrients against limits with units.
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

const STARTER = {
  name: "Starter",
  species: "Poultry",
  subcategory: "Starter",
  batchSize: 2000,
  ingredients: [{ name: "Maize", percent: 60 }, { name: "Soy", percent: 40 }],
  constraints: { nutrients: [{ key: "CP", min: 20, max: 24 }, { key: "ME_poultry", min: 2900, max: null }], ingredients: [{ name: "Soy", min: null, max: 45 }], ratios: [] },
};

const put = async (id: string, body: unknown, key = write) => {
  const res = await t.request("PUT", `/v1/formulas/${id}`, { key, body });
  return { status: res.status, location: res.headers.get("location"), body: await res.json() };
};

beforeAll(async () => {
  t = await startTestServer({ webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
  read = t.key();
  write = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  writeFileSync(csv, "name,category,price,inStock,CP,ME_poultry\nMaize,Cereals,200,yes,8.5,3350\nSoy,Protein meals,400,yes,46,2230\nWheat,Cereals,210,yes,12.5,3150\n");
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
  optedIn = startRecorder();
  byDefault = startRecorder();
  expect((await cli(["webhook", "add", optedIn.url, "--events", "formula.updated", "--data", t.dataPath])).code).toBe(0);
  expect((await cli(["webhook", "add", byDefault.url, "--data", t.dataPath])).code).toBe(0);
});
afterAll(async () => {
  await Promise.all([optedIn.stop(), byDefault.stop()]);
  await t.stop();
  tmp.cleanup();
});

describe("PUT /v1/formulas/:id", () => {
  test("new: 201 with Location, the detail as GET shows it plus warnings; replaced: 200, createdAt kept unless given", async () => {
    const created = await put("starter", STARTER);
    expect(created.status).toBe(201);
    expect(created.location).toBe("/v1/formulas/starter");
    const { warnings, ...detail } = created.body.data;
    expect(warnings).toEqual([]);
    // 0.6 × 8.5 + 0.4 × 46 = 23.5 % CP; 1.2 t × 200 + 0.8 t × 400 = 560.00 a batch, 280.00 a tonne.
    expect(detail).toMatchObject({ id: "starter", batchSize: 2000, totalCost: 560, nutrients: { CP: 23.5, ME_poultry: 2902 } });
    const got = await t.request("GET", "/v1/formulas/starter", { key: read });
    expect((await got.json()).data).toEqual(detail);

    const replaced = await put("starter", { ...STARTER, ingredients: [{ name: "Maize", percent: 70 }, { name: "Soy", percent: 30 }] });
    expect(replaced.status).toBe(200);
    expect(replaced.location).toBeNull();
    expect(replaced.body.data.createdAt).toBe(detail.createdAt);
    // 0.7 × 8.5 + 0.3 × 46 = 19.75 < 20: saved, with the import's warning.
    expect(replaced.body.data.warnings).toEqual(["starter does not meet its constraints: CP 19.75 < min 20"]);

    const dated = await put("starter", { ...STARTER, createdAt: "2026-09-01" });
    expect(dated.body.data.createdAt).toBe("2026-09-01T00:00:00.000Z");
  });

  test("validation as the import's, one problem per answer; a read key is 403", async () => {
    expect((await put("x", { ...STARTER, id: "x" })).body).toEqual({ status: "error", message: "Unknown field: id" });
    expect((await put("x", STARTER, read)).status).toBe(403);
    expect(await put("x", { ...STARTER, ingredients: [{ name: "Maize", percent: 60 }, { name: "Soy", percent: 30 }] })).toMatchObject({
      status: 400,
      body: { message: "percents sum to 90, not 100 (± 0.01)" },
    });
    expect((await put("x", { ...STARTER, ingredients: [{ name: "Oats", percent: 100 }] })).body.message).toBe("Formula x: Ingredient not found: Oats");
    expect((await put("bad%20id", STARTER)).body.message).toBe("id must be 1 to 64 of A-Z a-z 0-9 _ . -");
    expect((await put("x", { ...STARTER, batchSize: 0 })).status).toBe(400);
    expect((await t.request("GET", "/v1/formulas/x", { key: read })).status).toBe(404);
    const del = await t.request("DELETE", "/v1/formulas/starter", { key: write });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, HEAD, PUT");
  });

  test("formula.updated {id, name, timestamp} reaches webhooks that named it, for PUT and for import formulas; --no-events fires none", async () => {
    await eventually(() => optedIn.requests.length === 3);
    expect(optedIn.requests.map((r) => r.headers["x-webhook-event"])).toEqual(["formula.updated", "formula.updated", "formula.updated"]);
    expect(Object.keys(optedIn.requests[0]!.json)).toEqual(["id", "name", "timestamp"]);
    expect(optedIn.requests[0]!.json).toMatchObject({ id: "starter", name: "Starter" });

    const file = join(tmp.dir, "f.json");
    writeFileSync(file, JSON.stringify([{ ...STARTER, id: "grower", name: "Grower" }]));
    expect((await cli(["import", "formulas", file, "--data", t.dataPath])).code).toBe(0);
    await eventually(() => optedIn.requests.length === 4);
    expect(optedIn.requests[3]!.json).toMatchObject({ id: "grower", name: "Grower" });
    writeFileSync(file, JSON.stringify([{ ...STARTER, id: "finisher", name: "Finisher" }]));
    expect((await cli(["import", "formulas", file, "--no-events", "--data", t.dataPath])).code).toBe(0);
    const events = await (await t.request("GET", "/v1/events", { key: read })).json();
    expect(events.data.map((e: { payload: { id: string } }) => e.payload.id)).toEqual(["starter", "starter", "starter", "grower"]);
    // A webhook added without --events does not get the opt-in event.
    expect(byDefault.requests).toEqual([]);
  });
});

describe("feedbase formula list, show, optimize", () => {
  test("list: every formula with its cost per batch and per tonne", async () => {
    const r = await cli(["formula", "list", "--data", t.dataPath]);
    expect(r.stdout).toMatch(/^ID +NAME +SPECIES +SUBCATEGORY +BATCH KG +COST\/BATCH +COST\/T +CREATED$/m);
    expect(r.stdout).toMatch(/^grower +Grower +Poultry +Starter +2000 +560\.00 +280\.00 +\S+$/m);
  });

  test("show: composition with inclusion limits, nutrients against limits with units and basis", async () => {
    const r = await cli(["formula", "show", "grower", "--data", t.dataPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("grower: Grower (Poultry, Starter), batch of 2000 kg, saved ");
    expect(r.stdout).toContain("Cost 560.00 per batch, 280.00 per tonne (saved prices)\n");
    expect(r.stdout).toMatch(/^Soy +40 +800 +400 +320\.00 +- +45 %$/m);
    expect(r.stdout).toMatch(/^CP +23\.5 % +20 % +24 % +as-fed +ok$/m);
    expect(r.stdout).toMatch(/^ME_poultry +2902 kcal\/kg +2900 kcal\/kg +- +as-fed +ok$/m);
    expect((await put("low", { ...STARTER, ingredients: [{ name: "Maize", percent: 70 }, { name: "Soy", percent: 30 }] })).status).toBe(201);
    const low = await cli(["formula", "show", "low", "--data", t.dataPath]);
    expect(low.stdout).toMatch(/^CP +19\.75 % +20 % +24 % +as-fed +< min$/m);
  });

  test("optimize prints the optimized mix's nutrients against its limits, with units", async () => {
    const r = await cli(["formula", "optimize", "grower", "--include", "Wheat", "--data", t.dataPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("\nNutrients of the optimized mix against the limits:\n");
    expect(r.stdout).toMatch(/^CP +[\d.]+ % +20 % +24 % +as-fed +ok$/m);
    expect(r.stdout).toMatch(/^ME_poultry +[\d.]+ kcal\/kg +2900 kcal\/kg +- +as-fed +ok$/m);
  });
});
