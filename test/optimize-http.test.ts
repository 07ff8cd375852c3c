/**
 * GET /v1/formulas/:id/optimize and GET /v1/reports/savings on the demo workspace, over HTTP: the shape
 * and rounding, the query's own rules (include, price=NAME=VALUE, includeOutOfStock), out-of-stock
 * holds, infeasible formulas and caching per data generation (the solver pool: test/solver-pool.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { round } from "../src/domain/formula-math.ts";
import { buildProblem } from "../src/optimize/model.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import { lpOf } from "../src/optimize/solve.ts";
import type { OptimizeResult, SavingsItem } from "../src/schemas/optimize.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { startTestServer, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let write: string;
let db: AdminStore;

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
});

const get = (path: string) => t.request("GET", path, { key: read });
async function optimize(id: string, query = ""): Promise<OptimizeResult> {
  const res = await get(`/v1/formulas/${id}/optimize${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
}
const decimals = (v: number, n: number) => v === round(v, n);

describe("GET /v1/formulas/:id/optimize", () => {
  test("a read key may call it; the answer has the documented fields, rounded as documented", async () => {
    const r = await optimize("broiler-starter");
    expect(Object.keys(r)).toEqual(["id", "name", "batchSize", "status", "current", "optimized", "saving", "shadowPrices", "ranging", "excluded", "conflicts"]);
    expect(r).toMatchObject({ id: "broiler-starter", name: "Broiler starter 0-10 d", batchSize: 2000, status: "optimal", conflicts: [] });
    const opt = r.optimized!;
    expect(round(opt.ingredients.reduce((s, i) => s + i.percent, 0), 2)).toBe(100);
    for (const i of opt.ingredients) expect(decimals(i.percent, 4) && decimals(i.amount, 3) && decimals(i.cost, 2)).toBe(true);
    expect(opt.ingredients.map((i) => i.percent)).toEqual([...opt.ingredients.map((i) => i.percent)].sort((a, b) => b - a));
    // Every figure is rounded from unrounded sums, so differences of rounded figures may be off by a cent.
    expect(Math.abs(opt.costPerTon - opt.cost / 2)).toBeLessThanOrEqual(0.01);
    // The saving is current − optimized. The LP optimum (GLPK, an independent solver) is no dearer than the
    // saved mix, which keeps every limit; the mix shown is that optimum rounded so every limit holds on the
    // 0.0001 % grid, so it costs no less than the LP optimum (and may cost a little more than a saved grid mix).
    expect(Math.abs(r.saving!.perBatch - (r.current.cost - opt.cost))).toBeLessThanOrEqual(0.01 + 1e-9);
    const details = new Map((await db.listIngredientDetails(1)).map((i) => [i.name, i]));
    const formula = await db.requireFormula(1, "broiler-starter");
    const lp = (await glpkSolve(lpOf(buildProblem(candidatesOf(formula, (n) => details.get(n) ?? null, NO_OPTIONS), formula.constraints))))!;
    expect(r.current.costPerTon).toBeGreaterThanOrEqual(round(lp.z, 2) - 0.01);
    expect(opt.costPerTon).toBeGreaterThanOrEqual(round(lp.z, 2) - 0.01);
    expect(Math.abs(r.saving!.percent! - (r.saving!.perBatch / r.current.cost) * 100)).toBeLessThanOrEqual(0.01);
    // The saved composition at today's prices is what the cost route says it costs now.
    const cost = (await (await get("/v1/formulas/broiler-starter/cost")).json()).data;
    expect(r.current.cost).toBe(cost.cost);
    for (const s of [...r.shadowPrices.nutrients, ...r.shadowPrices.ingredients]) {
      expect(decimals(s.shadowPrice, 4)).toBe(true);
      if (s.validFrom !== null) expect(s.validFrom).toBeLessThanOrEqual(s.limit + 0.005);
      if (s.validTo !== null) expect(s.validTo).toBeGreaterThanOrEqual(s.limit - 0.005);
    }
    for (const g of r.ranging) {
      if (g.priceLow !== null) expect(g.priceLow).toBeLessThanOrEqual(g.price);
      if (g.priceHigh !== null) expect(g.priceHigh).toBeGreaterThanOrEqual(g.price);
    }
    for (const e of r.excluded) if (e.entersBelow !== null) expect(e.entersBelow).toBeLessThanOrEqual(e.price);
  });

  test("price=NAME=VALUE is a what-if, never stored; a price above its range changes the mix", async () => {
    const base = await optimize("broiler-starter");
    const maize = base.ranging.find((g) => g.name === "Maize")!;
    const dearer = maize.priceHigh! + 20;
    const r = await optimize("broiler-starter", `?price=Maize=${dearer}`);
    expect(r.current.ingredients.find((i) => i.name === "Maize")!.price).toBe(dearer);
    const before = base.optimized!.ingredients.find((i) => i.name === "Maize")!.percent;
    const after = r.optimized!.ingredients.find((i) => i.name === "Maize")?.percent ?? 0;
    expect(after).toBeLessThan(before);
    // Inside the range the composition holds: the same optimum, rounded to the grid at each answer's own
    // prices (the cheapest rounding depends on them), so each percent within the rounding's window of it
    // twice over (broiler-starter's narrowest window with a mix keeping every limit is 0.003 %).
    const inside = await optimize("broiler-starter", `?price=Maize%3D${maize.priceHigh! - 1}`);
    expect(inside.optimized!.ingredients.map((i) => i.name)).toEqual(base.optimized!.ingredients.map((i) => i.name));
    inside.optimized!.ingredients.forEach((i, k) => expect({ name: i.name, near: Math.abs(i.percent - base.optimized!.ingredients[k]!.percent) <= 0.006 }).toEqual({ name: i.name, near: true }));
    const stored = (await (await get("/v1/prices/Maize")).json()).data;
    expect(stored.price).toBe(base.current.ingredients.find((i) => i.name === "Maize")!.price);
  });

  test("include adds candidates: split at literal commas, each part percent-decoded; a price's name may hold '='", async () => {
    for (const body of [
      { name: "Fish meal, hipro", category: "Animal proteins", price: 1500, nutrients: { CP: 66, Lys: 5, Met: 1.9, MetCys: 2.5, Thr: 2.7, Ca: 4, avP: 2.5, ME_poultry: 2900 } },
      { name: "Mix=1", category: "Additives", price: 10, nutrients: { CP: 1 } },
    ]) expect((await t.request("POST", "/v1/ingredients", { key: write, body })).status).toBe(201);
    const r = await optimize("broiler-starter", "?include=Wheat,Fish%20meal%2C%20hipro&include=Barley&price=Fish+meal%2C+hipro=900&price=Mix%3D1%3D250&include=Mix%3D1");
    const names = [...r.optimized!.ingredients.map((i) => i.name), ...r.excluded.map((e) => e.name)];
    expect(names).toEqual(expect.arrayContaining(["Wheat", "Fish meal, hipro", "Barley", "Mix=1"]));
    const price = (n: string) => r.ranging.find((g) => g.name === n)?.price ?? r.excluded.find((e) => e.name === n)!.price;
    expect(price("Fish meal, hipro")).toBe(900);
    expect(price("Mix=1")).toBe(250);
  });

  test("bad parameters are 400 with the documented messages, after an unknown formula's 404", async () => {
    const cases: [string, number, string][] = [
      ["/v1/formulas/nope/optimize?includeOutOfStock=yes", 404, "Formula not found: nope"],
      ["/v1/formulas/broiler-starter/optimize?includeOutOfStock=yes", 400, "includeOutOfStock must be true or false"],
      ["/v1/formulas/broiler-starter/optimize?includeOutOfStock=TRUE", 400, "includeOutOfStock must be true or false"],
      ["/v1/formulas/broiler-starter/optimize?include=Wheat,Nope", 400, "Unknown ingredient: Nope"],
      ["/v1/formulas/broiler-starter/optimize?include=Wheat%2CBarley", 400, "Unknown ingredient: Wheat,Barley"],
      ["/v1/formulas/broiler-starter/optimize?price=Nope=3", 400, "Unknown ingredient: Nope"],
      ["/v1/formulas/broiler-starter/optimize?price=Maize", 400, "price must be NAME=VALUE with VALUE a number >= 0"],
      ["/v1/formulas/broiler-starter/optimize?price=Maize=-1", 400, "price must be NAME=VALUE with VALUE a number >= 0"],
      ["/v1/formulas/broiler-starter/optimize?price=Maize=abc", 400, "price must be NAME=VALUE with VALUE a number >= 0"],
      ["/v1/formulas/broiler-starter/optimize?price==5", 400, "price must be NAME=VALUE with VALUE a number >= 0"],
    ];
    for (const [path, status, message] of cases) {
      const res = await get(path);
      expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status, body: { status: "error", message } });
    }
  });

  test("an out-of-stock candidate is held at 0 (excluded, entersBelow null) unless includeOutOfStock=true", async () => {
    const base = await optimize("broiler-starter");
    const used = base.optimized!.ingredients.find((i) => i.name === "Soybean meal 48%")!;
    expect((await t.request("PUT", "/v1/prices/Soybean%20meal%2048%25", { key: write, body: { price: used.price, inStock: false } })).status).toBe(200);
    try {
      // Soybean meal 44% is there to take its place, so the formula stays feasible without it.
      const held = await optimize("broiler-starter", "?include=Soybean%20meal%2044%25");
      expect(held.status).toBe("optimal");
      expect(held.optimized!.ingredients.find((i) => i.name === "Soybean meal 48%")).toBeUndefined();
      expect(held.excluded.find((e) => e.name === "Soybean meal 48%")).toEqual({ name: "Soybean meal 48%", price: used.price, entersBelow: null });
      const shadowNames = held.shadowPrices.ingredients.map((s) => s.name);
      expect(shadowNames).not.toContain("Soybean meal 48%");
      const released = await optimize("broiler-starter", "?includeOutOfStock=true");
      expect(released.optimized!.ingredients.find((i) => i.name === "Soybean meal 48%")!.percent).toBe(used.percent);
      // Without a replacement no mix meets the protein limits: infeasible, and the hold is never a conflict.
      const without = await optimize("broiler-starter");
      expect(without.status).toBe("infeasible");
      expect(without.conflicts.some((c) => c.kind === "nutrient" && c.bound === "min")).toBe(true);
      expect(without.conflicts.some((c) => c.name === "Soybean meal 48%")).toBe(false);
    } finally {
      await t.request("PUT", "/v1/prices/Soybean%20meal%2048%25", { key: write, body: { price: used.price, inStock: true } });
    }
  });

  test("an infeasible formula: no optimized mix, no saving, the conflicts to relax", async () => {
    await db.importFormulas(1, readFormulaFile(JSON.stringify([{
      id: "impossible", name: "Impossible", species: "Poultry", subcategory: "Test", batchSize: 1000,
      ingredients: [{ name: "Maize", percent: 70 }, { name: "Soybean meal 48%", percent: 30 }],
      constraints: { nutrients: [{ key: "CP", min: 50, max: null }], ratios: [{ numerator: "Ca", denominator: "avP", min: null, max: 0.01 }] },
    }])), { replace: false, now: "2026-11-23T09:00:00.000Z" });
    const r = await optimize("impossible");
    expect(r).toMatchObject({ status: "infeasible", optimized: null, saving: null, ranging: [], excluded: [], shadowPrices: { nutrients: [], ingredients: [], ratios: [] } });
    expect(r.conflicts).toEqual([
      { kind: "nutrient", key: "CP", bound: "min", limit: 50, bestAchievable: 48.5, alone: false },
      { kind: "ratio", numerator: "Ca", denominator: "avP", bound: "max", limit: 0.01, bestAchievable: expect.any(Number), alone: false },
    ]);
    // No mix, so no candidate is "at 0 %" of one.
    expect(r.excluded).toEqual([]);
  });

  test("answers are cached per data generation: the same body until a price changes", async () => {
    const first = await (await get("/v1/formulas/layer-phase-1/optimize")).json();
    const second = await (await get("/v1/formulas/layer-phase-1/optimize")).json();
    expect(second.data).toEqual(first.data);
    const maize = first.data.current.ingredients.find((i: { name: string }) => i.name === "Maize");
    expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: maize.price + 50 } })).status).toBe(200);
    try {
      const after = await (await get("/v1/formulas/layer-phase-1/optimize")).json();
      expect(after.data.current.cost).toBeGreaterThan(first.data.current.cost);
    } finally {
      await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: maize.price } });
    }
  });

  test("what-ifs on one formula share its input, kept for the data's generation: a write replaces it", async () => {
    const m = await startTestServer({ metrics: { token: null } });
    const store = await openTestStore(m.dataPath);
    try {
      await store.seedDemo("2026-11-23T08:00:00.000Z");
      const [key, writer] = [m.key(), m.key({ write: true })];
      const kept = async () => Number(/^feedbase_read_cache_bytes\{cache="inputs"\} (\S+)$/m.exec(await (await fetch(m.url + "/metrics")).text())?.[1]);
      const whatIf = async (price: number) => {
        const res = await m.request("GET", `/v1/formulas/layer-phase-1/optimize?price=Maize%3D${price}`, { key });
        expect(res.status).toBe(200);
        return (await res.json()).data as OptimizeResult;
      };
      const cheap = await whatIf(100);
      const held = await kept();
      expect(held).toBeGreaterThan(0);
      const dear = await whatIf(400);
      // The second what-if found the first one's input: nothing more is kept.
      expect(await kept()).toBe(held);
      expect(dear.current.cost).toBeGreaterThan(cheap.current.cost);
      const other = cheap.current.ingredients.find((i) => i.name !== "Maize" && i.percent > 0)!;
      expect((await m.request("PUT", `/v1/prices/${encodeURIComponent(other.name)}`, { key: writer, body: { price: other.price + 100 } })).status).toBe(200);
      const after = await whatIf(100);
      expect(after.current.ingredients.find((i) => i.name === other.name)!.price).toBe(other.price + 100);
      expect(after.current.cost).toBeGreaterThan(cheap.current.cost);
    } finally {
      await store.close();
      await m.stop();
    }
  });

  test("HEAD answers like GET without a body", async () => {
    const res = await t.request("HEAD", "/v1/formulas/broiler-starter/optimize", { key: read });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("GET /v1/reports/savings", () => {
  test("every formula, by saving per ton descending, infeasible ones last; each row agrees with its optimization", async () => {
    const [res, health] = await Promise.all([get("/v1/reports/savings"), get("/v1/health")]);
    expect(health.status).toBe(200);
    expect(res.status).toBe(200);
    const body = await res.json();
    const items: SavingsItem[] = body.data;
    const formulas = (await (await get("/v1/formulas")).json()).data;
    expect(body.count).toBe(formulas.length);
    expect(items.map((i) => i.id).sort()).toEqual(formulas.map((f: { id: string }) => f.id).sort());
    const feasible = items.filter((i) => i.status === "optimal");
    expect(items.slice(feasible.length).every((i) => i.status === "infeasible" && i.optimizedCost === null && i.saving === null)).toBe(true);
    expect(feasible.map((i) => i.saving!.perTon)).toEqual([...feasible.map((i) => i.saving!.perTon)].sort((a, b) => b - a));
    for (const item of items.slice(0, 3)) {
      const r = await optimize(item.id);
      expect(item).toEqual({ id: item.id, name: r.name, species: expect.any(String), subcategory: expect.any(String), status: r.status, cost: r.current.cost, optimizedCost: r.optimized?.cost ?? null, saving: r.saving, savedMeetsLimits: expect.any(Boolean), violations: expect.any(Array) });
    }
  });
});
