/**
 * The daily workflow's figures: costs per tonne beside per batch (formulas of different batch sizes
 * compare), in the cost route, the cost-changes report and the `formula.cost_changed` payload; and a
 * calendar date wherever an instant is accepted.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, startTestServer, TestClock, tempDir, type TestServer } from "./helpers/harness.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

// The same composition in batches of 3 kg and 2000 kg: per tonne equal, per batch not.
const FORMULAS = JSON.stringify([
  { id: "small", name: "Small", species: "Poultry", subcategory: "Grower", batchSize: 3, createdAt: "2026-09-01", ingredients: [{ name: "Maize", percent: 66.67 }, { name: "Soy", percent: 33.33 }] },
  { id: "large", name: "Large", species: "Poultry", subcategory: "Grower", batchSize: 2000, createdAt: "2026-09-01T00:00:00Z", ingredients: [{ name: "Maize", percent: 66.67 }, { name: "Soy", percent: 33.33 }] },
]);

const clock = new TestClock(Date.parse("2026-11-21T12:00:00.000Z"));
const tmp = tempDir();
let t: TestServer;
let key: string;
let receiver: Recorder;

const get = async (path: string) => {
  const res = await t.request("GET", path, { key });
  return { status: res.status, body: await res.json() };
};

beforeAll(async () => {
  t = await startTestServer({ clock });
  key = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  writeFileSync(csv, "name,category,price,inStock\nMaize,Cereals,201.37,yes\nSoy,Protein meals,455.55,yes\n");
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
  const formulas = join(tmp.dir, "f.json");
  writeFileSync(formulas, FORMULAS);
  expect((await cli(["import", "formulas", formulas, "--data", t.dataPath])).code).toBe(0);
  receiver = startRecorder();
  expect((await cli(["webhook", "add", receiver.url, "--events", "price.updated,formula.cost_changed", "--data", t.dataPath])).code).toBe(0);
});
afterAll(async () => {
  await receiver.stop();
  await t.stop();
  tmp.cleanup();
});

// Σ percent/100 × price, rounded once: 0.6667 × 201.37 + 0.3333 × 455.55 = 134.253379 + 151.834815 = 286.088194.
const SAVED_PER_TON = 286.09;
// After Maize goes to 210: 0.6667 × 210 + 151.834815 = 291.841815.
const NEW_PER_TON = 291.84;

describe("per tonne beside per batch", () => {
  test("formula.cost_changed formulas gain batch_size and the cost per tonne before and after; existing fields unchanged", async () => {
    expect((await t.request("PUT", "/v1/prices/Maize", { key, body: { price: 210 } })).status).toBe(200);
    await eventually(() => receiver.requests.length === 2);
    const payload = receiver.requests[1]!.json as { formulas: Record<string, unknown>[] };
    expect(payload.formulas.map((f) => Object.keys(f))).toEqual([
      ["id", "name", "old_cost", "new_cost", "batch_size", "old_cost_per_ton", "new_cost_per_ton"],
      ["id", "name", "old_cost", "new_cost", "batch_size", "old_cost_per_ton", "new_cost_per_ton"],
    ]);
    expect(payload.formulas).toMatchObject([
      { id: "large", batch_size: 2000, old_cost_per_ton: SAVED_PER_TON, new_cost_per_ton: NEW_PER_TON },
      { id: "small", batch_size: 3, old_cost_per_ton: SAVED_PER_TON, new_cost_per_ton: NEW_PER_TON },
    ]);
  });

  test("GET /v1/formulas/:id/cost: costPerTon and changePerTon, equal for both batch sizes, never from a rounded per-batch cost", async () => {
    const small = (await get("/v1/formulas/small/cost")).body.data;
    const large = (await get("/v1/formulas/large/cost")).body.data;
    for (const f of [small, large]) expect(f).toMatchObject({ costPerTon: NEW_PER_TON, changePerTon: Math.round((NEW_PER_TON - SAVED_PER_TON) * 100) / 100 });
    // 3 kg: the per-batch cost is 0.88, which scaled to a tonne would be 293.33.
    expect(small.cost).toBe(0.88);
    expect(large.batchSize).toBe(2000);
  });

  test("GET /v1/reports/cost-changes rows: batchSize, costPerTon (now), changePerTon (now − then)", async () => {
    const { body } = await get("/v1/reports/cost-changes");
    const rows = body.data.map((c: Record<string, unknown>) => [c.id, c.batchSize, c.costPerTon, c.changePerTon]) as [string, ...unknown[]][];
    expect(rows.sort((a, b) => (a[0] < b[0] ? -1 : 1))).toEqual([
      ["large", 2000, NEW_PER_TON, 5.75],
      ["small", 3, NEW_PER_TON, 5.75],
    ]);
  });

  test("the CLI prints per tonne beside per batch", async () => {
    const cost = await cli(["formula", "cost", "small", "--data", t.dataPath]);
    expect(cost.stdout).toContain(`per tonne ${SAVED_PER_TON.toFixed(2)} → ${NEW_PER_TON.toFixed(2)} (+5.75)\n`);
    const report = await cli(["report", "cost-changes", "--data", t.dataPath]);
    expect(report.stdout).toMatch(/^small +Small +3 +[\d.]+ +[\d.]+ +\+[\d.]+ +\+[\d.]+ +291\.84 +\+5\.75 +Maize/m);
  });
});

describe("a calendar date wherever an instant is accepted", () => {
  test("at, since, from, to over HTTP mean 00:00:00.000Z of that day and are echoed as that instant", async () => {
    const day = "2026-11-21";
    const instant = "2026-11-21T00:00:00.000Z";
    expect((await get(`/v1/formulas/large/cost?at=${day}`)).body.data.at).toBe(instant);
    expect((await get(`/v1/formulas/large/cost?at=${day}`)).body.data).toEqual((await get(`/v1/formulas/large/cost?at=${instant}`)).body.data);
    expect((await get(`/v1/reports/cost-changes?since=${day}`)).body.since).toBe(instant);
    expect((await get(`/v1/prices?at=${day}`)).body).toMatchObject({ status: "ok" });
    const range = await get(`/v1/prices/Maize?from=2026-01-01&to=2099-01-01`);
    expect(range.body.data.history.length).toBe(2);
    expect((await get("/v1/prices/Maize?from=2026-13-01")).body.message).toBe("from must be an ISO 8601 date-time or a date (YYYY-MM-DD)");
  });

  test("--at, --since, --from on the command line; createdAt in a formula file", async () => {
    const cost = await cli(["formula", "cost", "large", "--at", "2026-11-21", "--json", "--data", t.dataPath]);
    expect(JSON.parse(cost.stdout).at).toBe("2026-11-21T00:00:00.000Z");
    expect((await cli(["report", "cost-changes", "--since", "2026-11-21", "--data", t.dataPath])).code).toBe(0);
    expect((await cli(["price", "history", "Maize", "--from", "2026-01-01", "--data", t.dataPath])).code).toBe(0);
    const small = await cli(["export", "formulas", "--data", t.dataPath]);
    expect(JSON.parse(small.stdout).map((f: { createdAt: string }) => f.createdAt)).toEqual(["2026-09-01T00:00:00.000Z", "2026-09-01T00:00:00.000Z"]);
  });
});
