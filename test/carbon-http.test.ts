/**
 * The carbon footprint over HTTP, on both backends (docs/decisions.md#carbon-footprint): `co2e` on
 * ingredients (POST, PUT /v1/ingredients/:name keeps or clears it, PUT /v1/prices/:name keeps the
 * spec's body), a formula's footprint in its detail and cost only, and the cost–CO2e frontier.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import type { FrontierShown } from "../src/optimize/frontier-task.ts";
import { startTestServer, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let write: string;
let store: AdminStore;

const INGREDIENTS = [
  { name: "Maize", category: "Cereals", price: 228, co2e: 0.4, nutrients: { CP: 8 } },
  { name: "Soybean meal 48% BR", category: "Protein meals", price: 430, co2e: 4.5, nutrients: { CP: 46 } },
  { name: "Soybean meal 48% US", category: "Protein meals", price: 470, co2e: 0.55, nutrients: { CP: 47 } },
  { name: "Premix", category: "Additives", price: 2000, nutrients: {} },
];

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  for (const body of INGREDIENTS) expect((await t.request("POST", "/v1/ingredients", { key: write, body })).status).toBe(201);
  store = await openTestStore(t.dataPath);
  const formulas = [
    // 20 % CP from maize and the Brazilian meal: 1200/38 % meal.
    { id: "starter", name: "Starter", species: "Poultry", subcategory: "Broiler starter", batchSize: 1000, createdAt: "2026-01-08T07:45:00.000Z",
      ingredients: [{ name: "Maize", percent: 68.4211 }, { name: "Soybean meal 48% BR", percent: 31.5789 }],
      constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [{ name: "Soybean meal 48% US", min: 0, max: null }], ratios: [] } },
    { id: "with-premix", name: "With premix", species: "Poultry", subcategory: "Broiler starter", batchSize: 1000, createdAt: "2026-01-08T07:45:00.000Z",
      ingredients: [{ name: "Maize", percent: 68 }, { name: "Soybean meal 48% BR", percent: 31.5 }, { name: "Premix", percent: 0.5 }],
      constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [{ name: "Premix", min: 0.5, max: null }], ratios: [] } },
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
const put = async (path: string, body: unknown) => {
  const res = await t.request("PUT", path, { key: write, body });
  return { status: res.status, body: await res.json() };
};

describe("co2e on ingredients", () => {
  test("POST stores it (default null), every detail shows it, lists and the price list do not", async () => {
    expect((await get("/v1/ingredients/Maize")).body.data).toMatchObject({ name: "Maize", co2e: 0.4 });
    expect((await get("/v1/ingredients/Premix")).body.data.co2e).toBeNull();
    const list = (await get("/v1/ingredients")).body.data;
    expect(list.every((i: object) => !("co2e" in i))).toBe(true);
    expect((await get("/v1/prices")).body.data.every((i: object) => !("co2e" in i))).toBe(true);
  });

  test("POST refuses a value outside −1000..1000 or not a number, naming the field", async () => {
    for (const [co2e, message] of [
      [1000.5, "co2e must be a number <= 1000"],
      [-1001, "co2e must be a number >= -1000"],
      ["0.4", "co2e must be a number"],
    ] as const) {
      const res = await t.request("POST", "/v1/ingredients", { key: write, body: { name: `Bad ${co2e}`, co2e } });
      expect({ co2e, status: res.status, error: (await res.json()).message }).toEqual({ co2e, status: 400, error: message });
    }
  });

  test("PUT /v1/ingredients/:name: absent keeps the footprint, a number sets it, null clears it; no history and no event for a footprint", async () => {
    await t.request("POST", "/v1/ingredients", { key: write, body: { name: "Wheat", price: 240, co2e: 0.6 } });
    const events = (await get("/v1/events")).body.data.length;
    expect((await put("/v1/ingredients/Wheat", { price: 245 })).body.data).toMatchObject({ price: 245, co2e: 0.6 });
    expect((await put("/v1/ingredients/Wheat", { price: 245, co2e: 0.65 })).body.data).toMatchObject({ price: 245, co2e: 0.65 });
    expect((await get("/v1/ingredients/Wheat")).body.data.co2e).toBe(0.65);
    expect((await put("/v1/ingredients/Wheat", { price: 245, co2e: null })).body.data.co2e).toBeNull();
    expect((await get("/v1/ingredients/Wheat")).body.data.co2e).toBeNull();
    // One price change (240 → 245) fired one event; the footprint changes fired none.
    expect((await get("/v1/events")).body.data.length).toBe(events + 1);
    expect((await put("/v1/ingredients/Wheat", { price: 245, co2e: 1e4 })).body).toMatchObject({ status: "error", message: "co2e must be a number <= 1000" });
  });

  test("PUT /v1/prices/:name keeps the spec's body: co2e is an unknown field there", async () => {
    const res = await put("/v1/prices/Maize", { price: 228, co2e: 0.5 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Unknown field: co2e");
    expect((await get("/v1/ingredients/Maize")).body.data.co2e).toBe(0.4);
  });
});

describe("a formula's footprint", () => {
  test("the detail and the cost give co2ePerTon (1 decimal) at today's co2e, the list does not", async () => {
    // 0.684211 × 0.4 × 1000 + 0.315789 × 4.5 × 1000 = 273.6844 + 1421.0505 = 1694.7349 → 1694.7
    const detail = (await get("/v1/formulas/starter")).body.data;
    expect(detail).toMatchObject({ co2ePerTon: 1694.7, co2eUnknown: [] });
    const cost = (await get("/v1/formulas/starter/cost?at=2026-01-08T00:00:00.000Z")).body.data;
    expect(cost).toMatchObject({ co2ePerTon: 1694.7, co2eUnknown: [] });
    expect((await get("/v1/formulas")).body.data.every((f: object) => !("co2ePerTon" in f))).toBe(true);
  });

  test("a row of unknown co2e makes the footprint unknown and is named", async () => {
    expect((await get("/v1/formulas/with-premix")).body.data).toMatchObject({ co2ePerTon: null, co2eUnknown: ["Premix"] });
    expect((await get("/v1/formulas/with-premix/cost")).body.data).toMatchObject({ co2ePerTon: null, co2eUnknown: ["Premix"] });
  });

  test("a footprint changed today moves the formula's footprint (footprints have no history)", async () => {
    await put("/v1/ingredients/Maize", { price: 228, co2e: 0.5 });
    // 0.684211 × 500 + 1421.0505 = 1763.1560
    expect((await get("/v1/formulas/starter")).body.data.co2ePerTon).toBe(1763.2);
    expect((await get("/v1/formulas/starter/cost?at=2026-01-08T00:00:00.000Z")).body.data.co2ePerTon).toBe(1763.2);
    await put("/v1/ingredients/Maize", { price: 228, co2e: 0.4 });
    expect((await get("/v1/formulas/starter")).body.data.co2ePerTon).toBe(1694.7);
  });
});

describe("GET /v1/formulas/:id/frontier", () => {
  test("from the least-cost to the least-CO2e mix, evenly spaced, abatement from the figures shown", async () => {
    const { status, body } = await get("/v1/formulas/starter/frontier?points=5");
    expect(status).toBe(200);
    const f: FrontierShown = body.data;
    expect(Object.keys(f)).toEqual(["id", "name", "status", "heldOut", "points", "abatement", "conflicts"]);
    expect(f).toMatchObject({ id: "starter", name: "Starter", status: "optimal", heldOut: [], conflicts: [] });
    expect(f.points.map((p) => p.co2ePerTon)).toEqual([1694.7, 1382.6, 1070.4, 758.3, 446.2]);
    expect(f.points[0]!.ingredients).toEqual([
      { name: "Maize", percent: 68.4211 },
      { name: "Soybean meal 48% BR", percent: 31.5789 },
    ]);
    expect(f.points.at(-1)!.ingredients).toEqual([
      { name: "Maize", percent: 69.2308 },
      { name: "Soybean meal 48% US", percent: 30.7692 },
    ]);
    expect(f.abatement).toHaveLength(4);
    f.abatement.forEach((a, k) => {
      const [before, after] = [f.points[k]!, f.points[k + 1]!];
      expect([a.from, a.to]).toEqual([before.co2ePerTon, after.co2ePerTon]);
      // One straight substitution: each tonne of CO2e avoided costs about 8.55.
      expect(Math.abs(a.costPerTonneCo2e! - 8.55)).toBeLessThan(0.1);
    });
  });

  test("points defaults to 11 and must be 2..51", async () => {
    expect((await get("/v1/formulas/starter/frontier")).body.data.points).toHaveLength(11);
    expect((await get("/v1/formulas/starter/frontier?points=51")).body.data.points).toHaveLength(51);
    for (const bad of ["1", "52", "x", "2.5"]) {
      const res = await get(`/v1/formulas/starter/frontier?points=${bad}`);
      expect({ bad, status: res.status, message: res.body.message }).toEqual({ bad, status: 400, message: "points must be an integer from 2 to 51" });
    }
  });

  test("a candidate of unknown co2e is held out and named; a formula that needs it has no frontier", async () => {
    const f: FrontierShown = (await get("/v1/formulas/with-premix/frontier")).body.data;
    expect(f.heldOut).toEqual(["Premix"]);
    expect(f.status).toBe("infeasible");
    expect(f.points).toEqual([]);
    expect(f.conflicts).toEqual([expect.objectContaining({ kind: "ingredient", name: "Premix", bound: "min", limit: 0.5 })]);
  });

  test("what-ifs as for the optimization: a US meal cheaper than the Brazilian one makes a one-point frontier", async () => {
    const f: FrontierShown = (await get(`/v1/formulas/starter/frontier?price=${encodeURIComponent("Soybean meal 48% US=400")}`)).body.data;
    expect(f.points).toHaveLength(1);
    expect(f.abatement).toEqual([]);
    expect(f.points[0]!.ingredients.map((i) => i.name)).toEqual(["Maize", "Soybean meal 48% US"]);
    expect((await get("/v1/formulas/starter/frontier?include=Nope")).body.message).toBe("Unknown ingredient: Nope");
    // candidates=all: every ingredient of the workspace joins; those of unknown footprint are held out.
    const all: FrontierShown = (await get("/v1/formulas/starter/frontier?candidates=all&points=3")).body.data;
    expect(all.heldOut).toContain("Premix");
    expect(all.points).toHaveLength(3);
    expect((await get("/v1/formulas/starter/frontier?candidates=some")).body.message).toBe("candidates must be formula or all");
    expect((await get("/v1/formulas/nope/frontier")).status).toBe(404);
  });
});

describe("GET /v1/formulas/:id/optimize?maxCo2e", () => {
  const optimize = async (query: string) => {
    const { status, body } = await get(`/v1/formulas/starter/optimize${query}`);
    expect(status).toBe(200);
    return body.data;
  };

  test("current and optimized show their footprint; without a cap nothing else changes", async () => {
    const r = await optimize("");
    expect(r.current.co2ePerTon).toBe(1694.7);
    expect(r.optimized.co2ePerTon).toBe(1694.7);
    expect(Object.keys(r.shadowPrices)).toEqual(["nutrients", "ingredients", "ratios"]);
    expect(r.excluded.every((e: object) => !("reason" in e))).toBe(true);
  });

  test("a binding cap: the mix meets it, its shadow price (6 decimals) and the cost of each tonne of CO2e abated (2 decimals)", async () => {
    const r = await optimize("?maxCo2e=1000&include=Premix");
    expect(r.status).toBe("optimal");
    expect(r.optimized.co2ePerTon).toBeLessThanOrEqual(1000);
    expect(r.optimized.co2ePerTon).toBeGreaterThan(999.9);
    const cap = r.shadowPrices.co2e;
    expect(cap.limit).toBe(1000);
    expect(cap.shadowPrice).toBe(Math.round(cap.shadowPrice * 1e6) / 1e6);
    expect(cap.shadowPrice).toBeLessThan(0);
    // One straight substitution of the Brazilian meal by the US one: about 8.55 per tonne of CO2e.
    expect(Math.abs(cap.perTonneCo2e - 8.55)).toBeLessThan(0.01);
    expect(Math.abs(cap.perTonneCo2e + cap.shadowPrice * 1000)).toBeLessThanOrEqual(0.005 + 0.0005);
    // Premix has no footprint: held at 0 under a cap, and said why.
    expect(r.excluded).toContainEqual({ name: "Premix", price: 2000, entersBelow: null, reason: "co2e unknown" });
  });

  test("a cap below the least-CO2e mix is infeasible, with the cap's repair: the least footprint, rounded up", async () => {
    const r = await optimize("?maxCo2e=100");
    expect(r.status).toBe("infeasible");
    // Maize and the US meal at 20 % CP: 10 × (0.4 × (100 − 1200/39) + 0.55 × 1200/39) = 446.15384… → 446.1539
    expect(r.conflicts).toContainEqual({ kind: "co2e", bound: "max", limit: 100, bestAchievable: 446.1539, alone: true });
  });

  test("maxCo2e must be a number", async () => {
    for (const bad of ["abc", "", "1e7"]) {
      const res = await get(`/v1/formulas/starter/optimize?maxCo2e=${bad}`);
      expect({ bad, status: res.status, message: res.body.message }).toEqual({ bad, status: 400, message: "maxCo2e must be a number from -1000000 to 1000000 (kg CO2e per tonne of feed)" });
    }
  });
});
