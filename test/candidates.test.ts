/**
 * Which ingredients an optimization may use, and what the worklist says of saved mixes that miss their
 * own limits, over HTTP on the demo workspace: a what-if price makes its ingredient a candidate,
 * candidates=formula|all on the optimization and the savings report, savedMeetsLimits and violations.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import type { OptimizeResult, SavingsItem } from "../src/schemas/optimize.ts";
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
  // A saved mix that misses its own limits: all maize, asked for 20 % CP.
  await db.importFormulas(1, readFormulaFile(JSON.stringify([{
    id: "short-of-protein", name: "Short of protein", species: "Poultry", subcategory: "Test", batchSize: 1000,
    ingredients: [{ name: "Maize", percent: 100 }],
    constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [{ name: "Soybean meal 48%", min: null, max: 40 }] },
  }])), { replace: false, now: "2026-11-23T09:00:00.000Z" });
  read = t.key();
  write = t.key({ write: true });
});
afterAll(async () => {
  await db.close();
  await t.stop();
});

async function optimize(id: string, query = ""): Promise<OptimizeResult> {
  const res = await t.request("GET", `/v1/formulas/${id}/optimize${query}`, { key: read });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}
const listed = (r: OptimizeResult) => [...r.ranging.map((g) => g.name), ...r.excluded.map((e) => e.name)];

describe("candidates of an optimization", () => {
  test("a what-if price on an ingredient outside the candidates makes it one (it was silently ignored)", async () => {
    const plain = await optimize("broiler-starter");
    const outsider = (await db.listIngredientDetails(1)).find((i) => i.inStock && !listed(plain).includes(i.name))!;
    const priced = await optimize("broiler-starter", `?price=${encodeURIComponent(`${outsider.name}=1`)}`);
    expect(listed(priced)).toContain(outsider.name);
    // At a price of 1 per ton it is worth using if it can be used at all.
    const row = priced.ranging.find((g) => g.name === outsider.name) ?? priced.excluded.find((e) => e.name === outsider.name)!;
    expect(row.price).toBe(1);
  });

  test("candidates=all: every in-stock ingredient of the workspace is a candidate, the answer no dearer than the formula's own set", async () => {
    const own = await optimize("broiler-starter");
    const all = await optimize("broiler-starter", "?candidates=all");
    const every = await db.listIngredientDetails(1);
    expect(listed(all).sort()).toEqual(every.filter((i) => i.inStock || listed(own).includes(i.name)).map((i) => i.name).sort());
    expect(all.optimized!.costPerTon).toBeLessThanOrEqual(own.optimized!.costPerTon + 0.05);
    expect(await optimize("broiler-starter", "?candidates=formula")).toEqual(own);
  });

  test("candidates=all leaves out an out-of-stock ingredient unless includeOutOfStock=true; one of the formula's own stays, held at 0", async () => {
    const own = await optimize("broiler-starter");
    const every = await db.listIngredientDetails(1);
    const stranger = every.find((i) => !listed(own).includes(i.name))!;
    const member = own.optimized!.ingredients[0]!.name;
    for (const name of [stranger.name, member]) {
      const detail = every.find((i) => i.name === name)!;
      expect((await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key: write, body: { price: detail.price, inStock: false } })).status).toBe(200);
    }
    try {
      const all = await optimize("broiler-starter", "?candidates=all");
      expect(listed(all)).not.toContain(stranger.name);
      expect(all.excluded.find((e) => e.name === member)).toMatchObject({ name: member, entersBelow: null });
      const released = await optimize("broiler-starter", "?candidates=all&includeOutOfStock=true");
      expect(listed(released)).toContain(stranger.name);
    } finally {
      for (const name of [stranger.name, member]) {
        const detail = every.find((i) => i.name === name)!;
        await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key: write, body: { price: detail.price, inStock: true } });
      }
    }
  });

  test("a bad candidates value is 400 with the documented message, on the optimization and the report", async () => {
    for (const path of ["/v1/formulas/broiler-starter/optimize?candidates=some", "/v1/reports/savings?candidates=everything"]) {
      const res = await t.request("GET", path, { key: read });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe("candidates must be formula or all");
    }
  });
});

describe("GET /v1/reports/savings", () => {
  test("each row says whether the saved mix meets its own limits and names its misses; such rows stay in the ranking", async () => {
    const items: SavingsItem[] = (await (await t.request("GET", "/v1/reports/savings", { key: read })).json()).data;
    const short = items.find((i) => i.id === "short-of-protein")!;
    expect(short).toMatchObject({ status: "optimal", savedMeetsLimits: false, violations: ["CP 8.5 < min 20"] });
    // Meeting the limit costs more than the saved maize: a negative "saving" that is the cost of meeting spec, and it says so.
    expect(short.saving!.perTon).toBeLessThan(0);
    for (const i of items.filter((x) => x.id !== "short-of-protein")) expect({ id: i.id, meets: i.savedMeetsLimits, violations: i.violations }).toEqual({ id: i.id, meets: true, violations: [] });
  });

  test("candidates=all optimizes every formula over the whole workspace: each saving at least the formula-only one (less a rounding hair)", async () => {
    const own: SavingsItem[] = (await (await t.request("GET", "/v1/reports/savings", { key: read })).json()).data;
    const all: SavingsItem[] = (await (await t.request("GET", "/v1/reports/savings?candidates=all", { key: read })).json()).data;
    expect(all.map((i) => i.id).sort()).toEqual(own.map((i) => i.id).sort());
    for (const i of all) {
      const o = own.find((x) => x.id === i.id)!;
      if (o.saving === null || i.saving === null) continue;
      expect({ id: i.id, atLeast: i.saving.perTon >= o.saving.perTon - 0.05 }).toEqual({ id: i.id, atLeast: true });
    }
    expect(all.some((i) => {
      const o = own.find((x) => x.id === i.id)!;
      return i.saving !== null && o.saving !== null && i.saving.perTon > o.saving.perTon + 0.5;
    })).toBe(true);
  });
});
