import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isoTime } from "../src/domain/time.ts";
import { cli, seenByServer, startTestServer, TestClock, type TestServer } from "./helpers/harness.ts";

const DAY = 24 * 3600 * 1000;
// The server's clock starts a month back, so entries the CLI makes (at the real time) come after its own.
const clock = new TestClock(Math.floor((Date.now() - 30 * DAY) / 1000) * 1000);
const T0 = clock.ms;
const T1 = T0 + DAY;
const T2 = T0 + 2 * DAY;
const T3 = T0 + 3 * DAY;
const iso = (ms: number) => isoTime(ms);

const FORMULAS = [
  { id: "starter", name: "Starter", species: "Poultry", subcategory: "Starter", batchSize: 1000, ingredients: [{ name: "Maize", percent: 60 }, { name: "Soy", percent: 40 }] },
  { id: "grower", name: "Grower", species: "Poultry", subcategory: "Grower", batchSize: 2000, ingredients: [{ name: "Maize", percent: 100 }] },
  { id: "grower-b", name: "Grower B", species: "Poultry", subcategory: "Grower", batchSize: 2000, ingredients: [{ name: "Maize", percent: 100 }] },
  // Rows of half a cent: the total is the unrounded costs summed (0.015 → 0.02), not the rounded rows (0.03).
  { id: "tiny", name: "Tiny", species: "Swine", subcategory: "Premix", batchSize: 1000, ingredients: [{ name: "A", percent: 0.5 }, { name: "B", percent: 0.5 }, { name: "C", percent: 0.5 }, { name: "D", percent: 98.5 }] },
  { id: "free", name: "Free", species: "Swine", subcategory: "Water", batchSize: 1000, ingredients: [{ name: "Free", percent: 100 }] },
];

let t: TestServer;
let key: string;
let writeKey: string;
const get = async (path: string) => {
  const res = await t.request("GET", path, { key });
  return { status: res.status, body: await res.json() };
};
const put = async (name: string, body: unknown) => expect((await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key: writeKey, body })).status).toBe(200);

beforeAll(async () => {
  t = await startTestServer({ clock });
  key = t.key();
  writeKey = t.key({ write: true });
  for (const [name, price] of [["Maize", 200], ["Soy", 400], ["A", 1], ["B", 1], ["C", 1], ["D", 0], ["Free", 0], ["Lonely", 50]] as const) {
    expect((await t.request("POST", "/v1/ingredients", { key: writeKey, body: { name, price, category: "Feed" } })).status).toBe(201);
  }
  const file = join(t.dataPath, "..", "formulas.json");
  writeFileSync(file, JSON.stringify(FORMULAS));
  expect((await cli(["import", "formulas", file, "--data", t.dataPath])).code).toBe(0);
  clock.ms = T1;
  await put("Maize", { price: 210 });
  clock.ms = T2;
  await put("Maize", { price: 210 }); // repeats price and stock: nothing recorded
  await put("Maize", { price: 210, inStock: false }); // a stock change is recorded
  clock.ms = T3;
  await put("Soy", { price: 380 });
  await put("A", { price: 3 });
  await put("Free", { price: 10 });
});
afterAll(() => t.stop());

describe("GET /v1/prices/:name", () => {
  test("current price and stock with every change newest first, source api; a repeated price wrote nothing; no timestamp", async () => {
    const { status, body } = await get("/v1/prices/Maize");
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "ok",
      data: {
        name: "Maize",
        category: "Feed",
        price: 210,
        inStock: false,
        history: [
          { price: 210, inStock: false, at: iso(T2), source: "api" },
          { price: 210, inStock: true, at: iso(T1), source: "api" },
          { price: 200, inStock: true, at: iso(T0), source: "api" },
        ],
      },
    });
  });

  test("from is inclusive, to exclusive; any time zone names the same instant", async () => {
    const at = async (query: string) => (await get(`/v1/prices/Maize?${query}`)).body.data.history.map((e: { at: string }) => e.at);
    expect(await at(`from=${iso(T1)}`)).toEqual([iso(T2), iso(T1)]);
    expect(await at(`to=${iso(T1)}`)).toEqual([iso(T0)]);
    expect(await at(`from=${iso(T1)}&to=${iso(T2)}`)).toEqual([iso(T1)]);
    const plusTwo = new Date(T1 + 2 * 3600 * 1000).toISOString().replace("Z", "+02:00");
    expect(await at(`from=${encodeURIComponent(plusTwo)}`)).toEqual([iso(T2), iso(T1)]);
    // A finer fraction than milliseconds keeps the bound's meaning: from T1 + 0.4 ms leaves T1 out.
    expect(await at(`from=${iso(T1).replace("Z", "4Z")}`)).toEqual([iso(T2)]);
  });

  test("unknown name 404 before a bad parameter's 400; the 400 names the field; GET, HEAD and PUT are allowed", async () => {
    expect(await get("/v1/prices/Nope?to=soon")).toEqual({ status: 404, body: { status: "error", message: "Ingredient not found: Nope" } });
    expect(await get("/v1/prices/Maize?to=soon")).toEqual({ status: 400, body: { status: "error", message: "to must be an ISO 8601 date-time or a date (YYYY-MM-DD)" } });
    expect((await get("/v1/prices/Maize?from=2026-02-30T00:00:00Z")).body.message).toBe("from must be an ISO 8601 date-time or a date (YYYY-MM-DD)");
    const options = await t.request("OPTIONS", "/v1/prices/Maize", { key });
    expect(options.status).toBe(405);
    expect(options.headers.get("allow")).toBe("GET, HEAD, PUT");
    const head = await t.request("HEAD", "/v1/prices/Maize", { key });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("GET /v1/prices?at=", () => {
  const list = async (query: string) => (await get(`/v1/prices?${query}`)).body;
  test("before the first entries: empty; on an entry: that entry; between two: the earlier; category is today's", async () => {
    expect(await list(`at=${iso(T0 - 1)}`)).toEqual({ status: "ok", data: [], count: 0 });
    const onT0 = await list(`at=${iso(T0)}`);
    expect(onT0.count).toBe(8);
    expect(onT0.data.find((p: { name: string }) => p.name === "Maize")).toEqual({ name: "Maize", price: 200, inStock: true, category: "Feed" });
    const between = await list(`at=${iso(T1 - 1)}`);
    expect(between.data.find((p: { name: string }) => p.name === "Maize").price).toBe(200);
    expect((await list(`at=${iso(T1)}`)).data.find((p: { name: string }) => p.name === "Maize")).toMatchObject({ price: 210, inStock: true });
    expect((await list(`at=${iso(T2)}&inStock=false`)).data).toEqual([{ name: "Maize", price: 210, inStock: false, category: "Feed" }]);
  });

  test("same shape and order as the list today; without at, the list is as before; a bad at is 400", async () => {
    const now = await list("");
    const later = await list(`at=${iso(Date.now() + DAY)}`);
    expect(later).toEqual(now);
    expect(Object.keys(later)).toEqual(["status", "data", "count"]);
    expect(await get("/v1/prices?at=yesterday")).toEqual({ status: 400, body: { status: "error", message: "at must be an ISO 8601 date-time or a date (YYYY-MM-DD)" } });
  });
});

describe("GET /v1/formulas/:id/cost", () => {
  test("at before, between and on entries; before any entry the earliest price is used", async () => {
    const cost = async (at: number) => (await get(`/v1/formulas/starter/cost?at=${iso(at)}`)).body.data;
    for (const at of [T0 - DAY, T0, T1 - 1]) expect(await cost(at)).toMatchObject({ at: iso(at), cost: 280, change: 0, changePercent: 0 });
    expect(await cost(T1)).toEqual({
      id: "starter",
      name: "Starter",
      batchSize: 1000,
      totalCost: 280,
      at: iso(T1),
      cost: 286,
      change: 6,
      changePercent: 2.14,
      costPerTon: 286,
      changePerTon: 6,
      ingredients: [
        { name: "Maize", percent: 60, amount: 600, savedPrice: 200, price: 210, cost: 126, change: 6 },
        { name: "Soy", percent: 40, amount: 400, savedPrice: 400, price: 400, cost: 160, change: 0 },
      ],
      co2ePerTon: null,
      co2eUnknown: ["Maize", "Soy"],
    });
  });

  test("without at: today's prices, and at is the request's time (cached bodies keep it per request)", async () => {
    clock.ms = T3 + 5;
    const first = (await get("/v1/formulas/starter/cost")).body;
    clock.ms = T3 + 6;
    const second = (await get("/v1/formulas/starter/cost")).body;
    expect(first.data).toMatchObject({ at: iso(T3 + 5), cost: 278, change: -2, changePercent: -0.71 });
    expect(first.timestamp).toBe(iso(T3 + 5));
    expect(second.data.at).toBe(iso(T3 + 6));
    expect(second.timestamp).toBe(iso(T3 + 6));
  });

  test("rounding: the total from unrounded row costs, rows to the cent, changes from the rounded figures", async () => {
    const { body } = await get("/v1/formulas/tiny/cost");
    expect(body.data).toMatchObject({ totalCost: 0.02, cost: 0.03, change: 0.01, changePercent: 50 });
    expect(body.data.ingredients.map((r: { name: string; cost: number; change: number }) => [r.name, r.cost, r.change])).toEqual([
      ["A", 0.02, 0.01],
      ["B", 0.01, 0],
      ["C", 0.01, 0],
      ["D", 0, 0],
    ]);
    expect((await get("/v1/formulas/free/cost")).body.data).toMatchObject({ totalCost: 0, cost: 10, change: 10, changePercent: null });
  });

  test("unknown id 404 before a bad at's 400", async () => {
    expect(await get("/v1/formulas/nope/cost?at=x")).toEqual({ status: 404, body: { status: "error", message: "Formula not found: nope" } });
    expect(await get("/v1/formulas/starter/cost?at=x")).toEqual({ status: 400, body: { status: "error", message: "at must be an ISO 8601 date-time or a date (YYYY-MM-DD)" } });
  });
});

describe("GET /v1/reports/cost-changes", () => {
  test("without since: against the saved figures; by |changePercent| (null first), then id; drivers by |change|", async () => {
    const { body } = await get("/v1/reports/cost-changes");
    expect(body.since).toBeNull();
    expect(body.count).toBe(5);
    expect(body.data.map((c: { id: string; changePercent: number | null }) => [c.id, c.changePercent])).toEqual([
      ["free", null],
      ["tiny", 50],
      ["grower", 5],
      ["grower-b", 5],
      ["starter", -0.71],
    ]);
    expect(body.data[4]).toEqual({
      id: "starter",
      name: "Starter",
      species: "Poultry",
      subcategory: "Starter",
      batchSize: 1000,
      costThen: 280,
      costNow: 278,
      change: -2,
      changePercent: -0.71,
      costPerTon: 278,
      changePerTon: -2,
      drivers: [
        { name: "Soy", priceThen: 400, priceNow: 380, change: -8 },
        { name: "Maize", priceThen: 200, priceNow: 210, change: 6 },
      ],
    });
    // A row whose price moved by less than a cent of cost is no driver.
    expect(body.data[1].drivers).toEqual([{ name: "A", priceThen: 1, priceNow: 3, change: 0.01 }]);
    expect(Object.keys(body)).toEqual(["status", "data", "count", "since", "timestamp"]);
  });

  test("with since: against the prices in effect then (on an entry it counts); formulas that did not move are left out", async () => {
    const onT1 = (await get(`/v1/reports/cost-changes?since=${iso(T1)}`)).body;
    expect(onT1.since).toBe(iso(T1));
    expect(onT1.data.map((c: { id: string }) => c.id)).toEqual(["free", "tiny", "starter"]);
    expect(onT1.data[2]).toMatchObject({ costThen: 286, costNow: 278, change: -8, changePercent: -2.8, drivers: [{ name: "Soy", priceThen: 400, priceNow: 380, change: -8 }] });
    const justBefore = (await get(`/v1/reports/cost-changes?since=${iso(T1 - 1)}`)).body;
    expect(justBefore.data.map((c: { id: string }) => c.id)).toEqual(["free", "tiny", "grower", "grower-b", "starter"]);
    // Before every entry the earliest prices apply: here, the prices the formulas were saved at.
    const beforeAll = (await get(`/v1/reports/cost-changes?since=${iso(T0 - DAY)}`)).body;
    expect(beforeAll.data).toEqual((await get("/v1/reports/cost-changes")).body.data);
    expect(await get("/v1/reports/cost-changes?since=last%20week")).toEqual({ status: 400, body: { status: "error", message: "since must be an ISO 8601 date-time or a date (YYYY-MM-DD)" } });
  });
});

describe("CLI over the same data", () => {
  test("--json prints each route's data as one JSON document", async () => {
    const pairs: [string[], string][] = [
      [["price", "history", "Maize", "--from", iso(T1)], `/v1/prices/Maize?from=${iso(T1)}`],
      [["formula", "cost", "starter", "--at", iso(T1)], `/v1/formulas/starter/cost?at=${iso(T1)}`],
      [["report", "cost-changes", "--since", iso(T1)], `/v1/reports/cost-changes?since=${iso(T1)}`],
      [["report", "cost-changes"], "/v1/reports/cost-changes"],
    ];
    for (const [args, path] of pairs) {
      const r = await cli([...args, "--json", "--data", t.dataPath]);
      expect(r.code).toBe(0);
      expect(r.stdout.trimEnd().split("\n")).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toEqual((await get(path)).body.data);
    }
  });

  test("tables: the history with a sparkline, the cost row by row, the report with its drivers", async () => {
    const history = await cli(["price", "history", "Maize", "--data", t.dataPath]);
    expect(history.stdout).toStartWith("Maize (Feed): 210 per ton, out of stock\n▁██  200 → 210 (low 200, high 210;");
    expect(history.stdout).toContain(`${iso(T2)}  210    no        api\n`);
    const cost = await cli(["formula", "cost", "starter", "--at", iso(T1), "--data", t.dataPath]);
    expect(cost.stdout).toContain("Saved cost 280.00 → cost 286.00 per batch (+6.00, +2.14%); per tonne 280.00 → 286.00 (+6.00)\n");
    expect(cost.stdout).toMatch(/^Maize +60 +600 +200 +210 +126\.00 +\+6\.00$/m);
    const report = await cli(["report", "cost-changes", "--data", t.dataPath]);
    expect(report.stdout).toMatch(/^starter +Starter +1000 +280\.00 +278\.00 +-2\.00 +-0\.71 +278\.00 +-2\.00 +Soy -8\.00, Maize \+6\.00$/m);
    expect(report.stdout).toMatch(/^free +Free +\d+ +0\.00 +10\.00 +\+10\.00 +- +[\d.]+ +\+[\d.]+ +Free \+10\.00$/m);
  });

  test("bad instants are usage errors (exit 2); unknown names and ids exit 1; --workspace is honoured", async () => {
    const bad = await cli(["formula", "cost", "starter", "--at", "noon", "--data", t.dataPath]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--at must be an ISO 8601 date-time");
    const missing = await cli(["price", "history", "Nope", "--data", t.dataPath]);
    expect([missing.code, missing.stderr]).toEqual([1, "error: Ingredient not found: Nope\n"]);
    const elsewhere = await cli(["report", "cost-changes", "--workspace", "nowhere", "--data", t.dataPath]);
    expect(elsewhere.code).toBe(1);
  });
});

describe("entry sources", () => {
  test("import: a created row is recorded at its updatedAt; --update records a changed price or stock at the import's time, a repeat nothing", async () => {
    const dir = join(t.dataPath, "..");
    writeFileSync(join(dir, "new.json"), JSON.stringify([{ name: "Barley", category: "Feed", price: 190, inStock: true, nutrients: {}, createdAt: "2026-01-02T03:04:05.006Z", updatedAt: "2026-01-02T03:04:05.006Z" }]));
    expect((await cli(["import", "ingredients", join(dir, "new.json"), "--data", t.dataPath])).code).toBe(0);
    expect((await get("/v1/prices/Barley")).body.data.history).toEqual([{ price: 190, inStock: true, at: "2026-01-02T03:04:05.006Z", source: "import" }]);

    writeFileSync(join(dir, "update.csv"), "name,category,price,inStock\nMaize,Feed,210,false\nLonely,Feed,55,true\n");
    const before = Date.now();
    expect((await cli(["import", "ingredients", join(dir, "update.csv"), "--update", "--data", t.dataPath])).code).toBe(0);
    expect((await get("/v1/prices/Maize")).body.data.history).toHaveLength(3);
    const lonely = (await get("/v1/prices/Lonely")).body.data.history;
    expect(lonely.map((e: { price: number; source: string }) => [e.price, e.source])).toEqual([[55, "import"], [50, "api"]]);
    expect(Date.parse(lonely[0].at)).toBeGreaterThanOrEqual(before - 1000);
  });

  test("deleting an ingredient deletes its history; the name created again starts a new one", async () => {
    expect((await cli(["ingredient", "delete", "Lonely", "--data", t.dataPath])).code).toBe(0);
    await seenByServer(async () => (await get("/v1/prices/Lonely")).status === 404);
    expect((await t.request("POST", "/v1/ingredients", { key: writeKey, body: { name: "Lonely", price: 70 } })).status).toBe(201);
    expect((await get("/v1/prices/Lonely")).body.data.history.map((e: { price: number }) => e.price)).toEqual([70]);
  });
});
