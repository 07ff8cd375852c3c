/**
 * Optimizing to a confidence level over HTTP and from the command line, on both backends
 * (docs/decisions.md#optimizing-to-a-confidence-level): the sds come from lab analyses posted through
 * the API, and every answer is checked against the definition with sds the test computes itself.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import { phi, quantile } from "./helpers/chance-problems.ts";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

setDefaultTimeout(60_000);
let t: TestServer;
let read: string;
let write: string;
let store: AdminStore;

const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY).toISOString();
const BOOK = { Maize: 8.5, "Soybean meal 48%": 46, Wheat: 12 } as Record<string, number>;
/** CP analyses within the last year; Wheat's two are too few for an sd (n < 3: sd 0). */
const RECENT: Record<string, number[]> = { "Soybean meal 48%": [44.2, 46.1, 47.5, 45.3, 46.9], Maize: [8.1, 9.0, 8.4], Wheat: [11.0, 13.0] };
/** An old lot of soybean meal, outside the default 365 days. */
const OLD = { name: "Soybean meal 48%", value: 40.5, sampledAt: daysAgo(500) };

/** The sample sd (n − 1) of values; 0 under 3 values, as the optimizer takes them. */
const sdOf = (values: number[]) => {
  if (values.length < 3) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
};

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  for (const [name, cp] of Object.entries(BOOK)) {
    const price = { Maize: 228, "Soybean meal 48%": 430, Wheat: 240 }[name];
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name, category: "Test", price, nutrients: { CP: cp } } })).status).toBe(201);
  }
  expect((await t.request("PUT", "/v1/nutrients/CP", { key: write, body: { name: "Crude protein", unit: "%", basis: "as-fed" } })).status).toBeLessThan(300);
  for (const [name, values] of Object.entries(RECENT)) {
    for (const [k, value] of values.entries()) {
      const res = await t.request("POST", `/v1/ingredients/${encodeURIComponent(name)}/analyses`, { key: write, body: { nutrients: { CP: value }, sampledAt: daysAgo(10 + k) } });
      expect(res.status).toBe(201);
    }
  }
  expect((await t.request("POST", `/v1/ingredients/${encodeURIComponent(OLD.name)}/analyses`, { key: write, body: { nutrients: { CP: OLD.value }, sampledAt: OLD.sampledAt } })).status).toBe(201);
  store = await openTestStore(t.dataPath);
  const formulas = [
    { id: "starter", name: "Starter", species: "Poultry", subcategory: "Test", batchSize: 1000, createdAt: "2026-01-08T07:45:00.000Z",
      ingredients: [{ name: "Maize", percent: 68 }, { name: "Soybean meal 48%", percent: 32 }],
      constraints: { nutrients: [{ key: "CP", min: 20, max: 24 }], ingredients: [{ name: "Wheat", min: 0, max: 30 }], ratios: [] } },
    // Only soybean meal reaches 45.9 % CP, and only on book values: no mix meets it with any real confidence.
    { id: "rich", name: "Rich", species: "Poultry", subcategory: "Test", batchSize: 1000, createdAt: "2026-01-08T07:45:00.000Z",
      ingredients: [{ name: "Soybean meal 48%", percent: 100 }], constraints: { nutrients: [{ key: "CP", min: 45.9, max: null }], ingredients: [], ratios: [] } },
  ];
  await store.importFormulas(1, parseFormulaFile(formulas), { replace: false, now: "2026-01-08T07:45:00.000Z" });
});
afterAll(async () => {
  await store.close();
  await t.stop();
});

const get = async (path: string) => {
  const res = await t.request("GET", path, { key: read });
  return { status: res.status, body: await res.json() };
};

/** Mean and sd of CP in a shown mix with these sds. */
function cpOf(ingredients: { name: string; percent: number }[], sds: Record<string, number>) {
  let mean = 0;
  let variance = 0;
  for (const i of ingredients) {
    mean += (BOOK[i.name]! * i.percent) / 100;
    variance += (((sds[i.name] ?? 0) * i.percent) / 100) ** 2;
  }
  return { mean, sd: Math.sqrt(variance) };
}
const recentSds = Object.fromEntries(Object.entries(RECENT).map(([name, values]) => [name, sdOf(values)]));

describe("GET /v1/formulas/:id/optimize?confidence=P", () => {
  test("the mix meets CP's limits with probability ≥ P from the posted analyses' sds; premium, deterministic cost and odds as the definition says", async () => {
    const plain = (await get("/v1/formulas/starter/optimize")).body.data;
    const { status, body } = await get("/v1/formulas/starter/optimize?confidence=0.95");
    expect(status).toBe(200);
    const r = body.data;
    expect(r.status).toBe("optimal");
    expect(r.confidence).toBe(0.95);
    const { mean, sd } = cpOf(r.optimized.ingredients, recentSds);
    const z = quantile(0.95);
    expect(mean - z * sd - 20).toBeGreaterThanOrEqual(-1e-6);
    expect(24 - mean - z * sd).toBeGreaterThanOrEqual(-1e-6);
    expect(sd).toBeGreaterThan(0);
    expect(r.optimized.odds.CP).toEqual({
      mean: Math.round(mean * 1e4) / 1e4,
      sd: Math.round(sd * 1e4) / 1e4,
      margin: Math.round(Math.min(mean - 20, 24 - mean) * 1e4) / 1e4,
      probabilityMin: Math.round(phi((mean - 20) / sd) * 1e4) / 1e4,
      probabilityMax: Math.round(phi((24 - mean) / sd) * 1e4) / 1e4,
    });
    expect(r.deterministicCost).toBe(plain.optimized.costPerTon);
    expect(r.premium).toBe(Math.round((r.optimized.costPerTon - plain.optimized.costPerTon) * 100) / 100);
    expect(r.premium).toBeGreaterThan(0);
    expect(typeof r.blanketMarginCost).toBe("number");
    expect(r.ranging).toBeUndefined();
    expect(r.shadowPrices.nutrients.every((s: object) => !("validFrom" in s))).toBe(true);
  });

  test("confidence 0.5 is the plain answer plus the odds; absent, the plain answer as before", async () => {
    const plain = (await get("/v1/formulas/starter/optimize")).body.data;
    const { confidence, deterministicCost, premium, blanketMarginCost, optimized, ...rest } = (await get("/v1/formulas/starter/optimize?confidence=0.5")).body.data;
    const { odds, ...mix } = optimized;
    expect({ ...rest, optimized: mix }).toEqual(plain);
    expect([confidence, deterministicCost, premium, blanketMarginCost]).toEqual([0.5, plain.optimized.costPerTon, 0, plain.optimized.costPerTon]);
    expect(Object.keys(odds)).toEqual(["CP"]);
    expect("odds" in plain.optimized).toBe(false);
  });

  test("analysesSince moves the window: the old lot counts from an earlier date, no analysis after a later one (sd 0: the book-value mix)", async () => {
    const all = (await get(`/v1/formulas/starter/optimize?confidence=0.95&analysesSince=${OLD.sampledAt.slice(0, 10)}`)).body.data;
    const wider = { ...recentSds, "Soybean meal 48%": sdOf([...RECENT["Soybean meal 48%"]!, OLD.value]) };
    const { mean, sd } = cpOf(all.optimized.ingredients, wider);
    expect(mean - quantile(0.95) * sd - 20).toBeGreaterThanOrEqual(-1e-6);
    const recent = (await get("/v1/formulas/starter/optimize?confidence=0.95")).body.data;
    expect(all.premium).toBeGreaterThan(recent.premium);
    const none = (await get(`/v1/formulas/starter/optimize?confidence=0.95&analysesSince=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`)).body.data;
    expect(none.premium).toBe(0);
    expect(none.optimized.odds.CP.sd).toBe(0);
    expect(none.optimized.odds.CP.probabilityMin).toBe(1);
  });

  test("a level no mix reaches is infeasible, with the book-value cost beside it", async () => {
    const r = (await get("/v1/formulas/rich/optimize?confidence=0.9")).body.data;
    expect(r.status).toBe("infeasible");
    expect(r.optimized).toBeNull();
    expect(r.deterministicCost).toBe(430);
    expect(r.premium).toBeNull();
  });

  test("bad parameters are 400s naming them", async () => {
    for (const [query, message] of [
      ["confidence=0.4", "confidence must be between 0.5 and 0.999"],
      ["confidence=1", "confidence must be between 0.5 and 0.999"],
      ["confidence=abc", "confidence must be between 0.5 and 0.999"],
      ["confidence=0.95&analysesSince=2026-13-01", "analysesSince must be an ISO 8601 date-time or a date (YYYY-MM-DD)"],
    ]) {
      const res = await get(`/v1/formulas/starter/optimize?${query}`);
      expect({ query, status: res.status, message: res.body.message }).toEqual({ query, status: 400, message });
    }
    expect((await get("/v1/formulas/nope/optimize?confidence=0.95")).status).toBe(404);
  });
});

describe("GET /v1/formulas/:id/confidence", () => {
  test("10 points from 0.5 to 0.99 by default, the first the plain answer, each meeting its level, costs rising", async () => {
    const plain = (await get("/v1/formulas/starter/optimize")).body.data;
    const { status, body } = await get("/v1/formulas/starter/confidence");
    expect(status).toBe(200);
    expect(body.data.id).toBe("starter");
    const points = body.data.points;
    expect(points.map((p: { confidence: number }) => p.confidence)).toEqual(Array.from({ length: 10 }, (_, k) => Math.round((0.5 + (0.49 * k) / 9) * 1e4) / 1e4));
    expect(points[0].costPerTon).toBe(plain.optimized.costPerTon);
    points.forEach((p: { confidence: number; costPerTon: number; ingredients: { name: string; percent: number }[] }, k: number) => {
      const level = k === 9 ? 0.99 : 0.5 + (0.49 * k) / 9;
      const { mean, sd } = cpOf(p.ingredients, recentSds);
      expect(mean - (level === 0.5 ? 0 : quantile(level)) * sd - 20).toBeGreaterThanOrEqual(-1e-6);
      if (k > 0) expect(p.costPerTon + 0.005).toBeGreaterThanOrEqual(points[k - 1].costPerTon);
    });
    const at95 = (await get("/v1/formulas/starter/confidence?from=0.95&to=0.99&points=2")).body.data.points;
    expect(at95[0].confidence).toBe(0.95);
    expect(Math.abs(at95[0].costPerTon - (await get("/v1/formulas/starter/optimize?confidence=0.95")).body.data.optimized.costPerTon)).toBeLessThanOrEqual(0.01);
  });

  test("levels no mix reaches are null", async () => {
    const points = (await get("/v1/formulas/rich/confidence?from=0.5&to=0.9&points=2")).body.data.points;
    expect(points).toEqual([{ confidence: 0.5, costPerTon: 430, ingredients: [{ name: "Soybean meal 48%", percent: 100 }] }, { confidence: 0.9, costPerTon: null, ingredients: null }]);
  });

  test("bad parameters are 400s naming them", async () => {
    for (const [query, message] of [
      ["points=1", "points must be an integer from 2 to 50"],
      ["points=51", "points must be an integer from 2 to 50"],
      ["from=0.4", "from must be between 0.5 and 0.999"],
      ["to=1", "to must be between 0.5 and 0.999"],
      ["analysesSince=yesterday", "analysesSince must be an ISO 8601 date-time or a date (YYYY-MM-DD)"],
    ]) {
      const res = await get(`/v1/formulas/starter/confidence?${query}`);
      expect({ query, status: res.status, message: res.body.message }).toEqual({ query, status: 400, message });
    }
    expect((await get("/v1/formulas/nope/confidence")).status).toBe(404);
  });
});

describe("the command line", () => {
  const fb = (...args: string[]) => cli([...args, "--data", t.dataPath]);

  test("formula optimize --confidence prints the odds with units, the premium and the blanket margin per ton", async () => {
    const r = await fb("formula", "optimize", "starter", "--confidence", "0.95");
    expect(r.code).toBe(0);
    const http = (await get("/v1/formulas/starter/optimize?confidence=0.95")).body.data;
    expect(r.stdout).toContain(`premium +${http.premium.toFixed(2)} per ton`);
    expect(r.stdout).toContain(`would cost ${http.blanketMarginCost.toFixed(2)} per ton`);
    expect(r.stdout).toMatch(new RegExp(`CP\\s+${http.optimized.odds.CP.mean} %\\s+${http.optimized.odds.CP.sd} %`));
    expect(r.stdout).toContain("P(≥ MIN)");
    const json = await fb("formula", "optimize", "starter", "--confidence", "0.95", "--json");
    expect(JSON.parse(json.stdout)).toEqual(http);
  });

  test("formula confidence --json prints the route's data; the table by default; bad values are usage errors", async () => {
    const json = await fb("formula", "confidence", "starter", "--points", "4", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual((await get("/v1/formulas/starter/confidence?points=4")).body.data);
    const table = await fb("formula", "confidence", "starter", "--from", "0.9", "--to", "0.99", "--points", "2");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("CONFIDENCE");
    expect(table.stdout).toContain("99.00 %");
    const bad = await fb("formula", "confidence", "starter", "--to", "1.5");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--to must be between 0.5 and 0.999");
    expect((await fb("formula", "optimize", "starter", "--confidence", "0.3")).stderr).toContain("--confidence must be between 0.5 and 0.999");
  });
});

// Last: it adds an analysis, which the tests above do not expect.
describe("a new analysis", () => {
  test("a new analysis changes the next answer (nothing stale is served from the cache)", async () => {
    const before = (await get("/v1/formulas/rich/optimize?confidence=0.6")).body.data;
    // Wheat is no candidate of "rich": its new analysis changes the data, not that formula's answer.
    const wheat = await t.request("POST", "/v1/ingredients/Wheat/analyses", { key: write, body: { nutrients: { CP: 12.5 }, sampledAt: daysAgo(3) } });
    expect(wheat.status).toBe(201);
    expect((await get("/v1/formulas/rich/optimize?confidence=0.6")).body.data).toEqual(before);
    const starter = (await get("/v1/formulas/starter/optimize?confidence=0.95")).body.data;
    // Wheat now has 3 analyses: an sd of its own, so the starter's odds move.
    const sds = { ...recentSds, Wheat: sdOf([...RECENT.Wheat!, 12.5]) };
    const { sd } = cpOf(starter.optimized.ingredients, sds);
    expect(starter.optimized.odds.CP.sd).toBe(Math.round(sd * 1e4) / 1e4);
    expect(sds.Wheat).toBeGreaterThan(0);
  });
});
