import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { formulaRead, formulaSummary } from "../src/schemas/formulas.ts";
import type { AdminStore } from "../src/admin/ops.ts";
import { eventually, startTestServer, type TestServer } from "./helpers/harness.ts";
import { openTestStore, writeRaw } from "./helpers/store.ts";

let t: TestServer;
let store: AdminStore;
let read: string;
let otherRead: string;
let otherWorkspace: number;

const NOW = "2026-11-21T12:00:00.000Z";
const INGREDIENTS = [
  "name,category,price,inStock,CP,Lys,X",
  "Maize,Cereals,228,true,8.5,0.26,",
  "Soybean meal 48%,Protein meals,462.5,true,48.5,2.96,",
  "Filler,Additives,0,true,,,0.0002",
  "Penny,Additives,1,true,,,",
].join("\n");

/** Import formulas as the CLI does (same validation and arithmetic), into the server's data. */
const importJson = (formulas: unknown[], workspaceId = 1, replace = false) =>
  store.importFormulas(workspaceId, readFormulaFile(JSON.stringify(formulas)), { replace, now: NOW });
const get = (path: string, key = read) => t.request("GET", path, { key });

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  store = await openTestStore(t.dataPath);
  otherWorkspace = (await store.createWorkspace("other", "Other mill", NOW)).id;
  otherRead = t.key({ workspace: "other" });
  await store.importIngredients(1, INGREDIENTS, "csv", { update: false, now: NOW });
  await store.importIngredients(otherWorkspace, INGREDIENTS, "csv", { update: false, now: NOW });
  await importJson([
    {
      id: "broiler-starter",
      name: "Broiler starter",
      species: "Poultry",
      subcategory: "Broiler starter",
      batchSize: 2000,
      createdAt: "2026-01-08T09:45:00+02:00",
      ingredients: [
        { name: "Maize", percent: 60.347 },
        { name: "Soybean meal 48%", percent: 39.653 },
      ],
      constraints: { nutrients: [{ key: "CP", min: 21.5, max: null }], ingredients: [{ name: "Maize", min: null, max: 70 }] },
    },
    // Same createdAt: ties go by id in byte order ("B" 0x42 before "a" 0x61).
    { id: "a-layer", name: "Layer", species: "Poultry", subcategory: "Layer", batchSize: 1000, createdAt: "2026-02-01T00:00:00.000Z", ingredients: [{ name: "Maize", percent: 100 }] },
    { id: "B-layer", name: "Layer B", species: "Poultry", subcategory: "Layer", batchSize: 1000, createdAt: "2026-02-01T00:00:00.000Z", ingredients: [{ name: "Maize", percent: 100 }] },
    { id: "grower", name: "Grower pig", species: "Swine", subcategory: "Grower", batchSize: 1000, createdAt: "2026-01-20T00:00:00.000Z", ingredients: [{ name: "Maize", percent: 100 }] },
  ]);
  await importJson([{ id: "broiler-starter", name: "Other mill's starter", species: "Poultry", subcategory: "Broiler starter", batchSize: 500, ingredients: [{ name: "Maize", percent: 100 }] }], otherWorkspace);
});
afterAll(async () => {
  await store.close();
  await t.stop();
});

describe("GET /v1/formulas", () => {
  test("exactly the spec's summary fields, newest first, then id by bytes", async () => {
    const res = await get("/v1/formulas");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["status", "data", "count", "timestamp"]);
    expect(body.status).toBe("ok");
    expect(body.count).toBe(4);
    expect(body.data.map((f: { id: string }) => f.id)).toEqual(["B-layer", "a-layer", "grower", "broiler-starter"]);
    for (const item of body.data) {
      expect(Object.keys(item)).toEqual(["id", "name", "species", "subcategory", "batchSize", "totalCost", "createdAt"]);
      formulaSummary.parse(item);
    }
    expect(body.data[3]).toEqual({
      id: "broiler-starter",
      name: "Broiler starter",
      species: "Poultry",
      subcategory: "Broiler starter",
      batchSize: 2000,
      totalCost: 641.97,
      createdAt: "2026-01-08T07:45:00.000Z",
    });
  });

  test("?species= and ?subcategory= filter exactly and add up; unknown parameters are ignored", async () => {
    const ids = async (query: string) => (await (await get(`/v1/formulas${query}`)).json()).data.map((f: { id: string }) => f.id);
    expect(await ids("?species=Swine")).toEqual(["grower"]);
    expect(await ids("?species=swine")).toEqual([]);
    expect(await ids("?species=Poultry&subcategory=Layer")).toEqual(["B-layer", "a-layer"]);
    expect(await ids("?subcategory=Broiler%20starter&page=2")).toEqual(["broiler-starter"]);
  });
});

describe("GET /v1/formulas/:id", () => {
  test("the detail of docs/decisions.md#formulas-and-files, field by field", async () => {
    const res = await get("/v1/formulas/broiler-starter");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["status", "data", "timestamp"]);
    formulaRead.parse(body);
    expect(Object.keys(body.data)).toEqual(["id", "name", "species", "subcategory", "batchSize", "totalCost", "createdAt", "ingredients", "nutrients", "constraints", "co2ePerTon", "co2eUnknown"]);
    expect(body.data).toEqual({
      id: "broiler-starter",
      name: "Broiler starter",
      species: "Poultry",
      subcategory: "Broiler starter",
      batchSize: 2000,
      totalCost: 641.97,
      createdAt: "2026-01-08T07:45:00.000Z",
      ingredients: [
        // 60.347% of 2000 kg = 1206.94 kg; 1206.94/1000 × 228 = 275.18232 → 275.18
        { name: "Maize", percent: 60.347, amount: 1206.94, price: 228, cost: 275.18 },
        // 39.653% of 2000 kg = 793.06 kg; × 462.5 / 1000 = 366.79025 → 366.79
        { name: "Soybean meal 48%", percent: 39.653, amount: 793.06, price: 462.5, cost: 366.79 },
      ],
      // CP: 0.60347 × 8.5 + 0.39653 × 48.5 = 24.3612; Lys: 0.60347 × 0.26 + 0.39653 × 2.96 = 1.330631 → 1.3306 (4 decimals)
      nutrients: { CP: 24.3612, Lys: 1.3306 },
      constraints: { nutrients: [{ key: "CP", min: 21.5, max: null }], ingredients: [{ name: "Maize", min: null, max: 70 }], ratios: [] },
      // Neither ingredient has a footprint: the formula's is unknown, and says which rows.
      co2ePerTon: null,
      co2eUnknown: ["Maize", "Soybean meal 48%"],
    });
    // totalCost: 275.18232 + 366.79025 = 641.97257 → 641.97
  });

  test("constraints always carry ratios: [] for a formula stored before ratio constraints existed", async () => {
    const constraints = JSON.stringify({ nutrients: [{ key: "CP", min: 15, max: null }], ingredients: [] });
    writeRaw(
      t.dataPath,
      `INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints) VALUES (1, 'old', 'Old', 'Swine', 'Grower', 1000, 0, '2025-01-01T00:00:00.000Z', '{}', '${constraints}')`,
    );
    // Written past the server, as another process would: on PostgreSQL it hears of it within a moment.
    let res: Response | undefined;
    await eventually(async () => (res = await get("/v1/formulas/old")).status === 200);
    const body = await res!.json();
    expect(body.data.constraints).toEqual({ nutrients: [{ key: "CP", min: 15, max: null }], ingredients: [], ratios: [] });
    writeRaw(t.dataPath, "DELETE FROM formulas WHERE workspace_id = 1 AND id = 'old'");
  });

  test("HEAD answers like GET without a body", async () => {
    const res = await t.request("HEAD", "/v1/formulas/broiler-starter", { key: read });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("an unknown id is 404 naming it; nothing after the slash is 404 Not found", async () => {
    const res = await get("/v1/formulas/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: "error", message: "Formula not found: nope" });
    const bare = await get("/v1/formulas/");
    expect(bare.status).toBe(404);
    expect(await bare.json()).toEqual({ status: "error", message: "Not found" });
  });
});

describe("formulas are written only by PUT /v1/formulas/:id over HTTP", () => {
  const cases: [string, string[], string][] = [
    ["/v1/formulas", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"], "GET, HEAD"],
    ["/v1/formulas/broiler-starter", ["POST", "DELETE", "PATCH", "OPTIONS"], "GET, HEAD, PUT"],
  ];
  for (const [path, methods, allow] of cases) {
    for (const method of methods) {
      test(`${method} ${path} is 405 with Allow: ${allow}, even with a write key`, async () => {
        const body = method === "OPTIONS" ? undefined : { name: "x" };
        const res = await t.request(method, path, { key: t.key({ write: true }), body });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe(allow);
        expect(await res.json()).toEqual({ status: "error", message: "Method not allowed" });
      });
    }
  }
});

describe("workspace isolation", () => {
  test("each workspace sees its own formulas, even under the same id", async () => {
    const other = await (await get("/v1/formulas", otherRead)).json();
    expect(other.data.map((f: { id: string; name: string }) => [f.id, f.name])).toEqual([["broiler-starter", "Other mill's starter"]]);
    const detail = await (await get("/v1/formulas/broiler-starter", otherRead)).json();
    expect(detail.data).toMatchObject({ name: "Other mill's starter", batchSize: 500, totalCost: 114 });
  });

  test("another workspace's formula is a 404, as if it did not exist", async () => {
    const res = await get("/v1/formulas/grower", otherRead);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: "error", message: "Formula not found: grower" });
  });
});

describe("The rounding of docs/decisions.md#formulas-and-files, on cases where the order of rounding matters", () => {
  // A workspace of its own, so these formulas stay out of the list tests above.
  let key: string;
  const detail = async (id: string) => (await (await get(`/v1/formulas/${id}`, key)).json()).data;
  const formula = (id: string, batchSize: number, ingredients: unknown[], extra: object = {}) => ({ id, name: id, species: "Test", subcategory: "Rounding", batchSize, ingredients, ...extra });

  beforeAll(async () => {
    const ws = (await store.createWorkspace("rounding", "Rounding cases", NOW)).id;
    key = t.key({ workspace: "rounding" });
    await store.importIngredients(ws, INGREDIENTS, "csv", { update: false, now: NOW });
    await importJson([
      formula("cents", 1000, [
        { name: "Penny", percent: 0.5 },
        { name: "Penny", percent: 0.5 },
        { name: "Penny", percent: 0.5 },
        { name: "Penny", percent: 0.5 },
        { name: "Filler", percent: 98 },
      ]),
      formula("half-cent", 1005, [{ name: "Penny", percent: 100 }]),
      formula("premix-dust", 1000, [
        { name: "Penny", percent: 0.00044, price: 1200 },
        { name: "Filler", percent: 99.99956 },
      ]),
      formula("quarters", 1000, [
        { name: "Filler", percent: 25 },
        { name: "Filler", percent: 25 },
        { name: "Filler", percent: 25 },
        { name: "Filler", percent: 25 },
      ]),
      formula("thirds", 1, [
        { name: "Maize", percent: 33.3335 },
        { name: "Soybean meal 48%", percent: 66.6665 },
      ]),
      formula("own-figures", 1000, [{ name: "Maize", percent: 100, price: 199.5 }], { nutrients: { CP: 9.1, Starch: 64 } }),
      formula("union", 1000, [
        { name: "Maize", percent: 50 },
        { name: "Filler", percent: 50 },
      ]),
    ], ws);
  });

  test("totalCost sums the unrounded costs: four rows of 0.005 show 0.01 each but total 0.02", async () => {
    const f = await detail("cents");
    expect(f.ingredients.slice(0, 4).map((r: { cost: number }) => r.cost)).toEqual([0.01, 0.01, 0.01, 0.01]);
    expect(f.totalCost).toBe(0.02);
  });

  test("half-way cases round away from zero in decimal, not in binary: 1.005 is 1.01", async () => {
    const f = await detail("half-cent");
    expect(f.ingredients).toEqual([{ name: "Penny", percent: 100, amount: 1005, price: 1, cost: 1.01 }]);
    expect(f.totalCost).toBe(1.01);
  });

  test("a row's cost comes from its rounded amount, the total from unrounded costs", async () => {
    const f = await detail("premix-dust");
    // 0.0044 kg shows as 0.004 kg; 0.004 kg × 1200/t = 0.0048 → 0.00, though 0.0044 kg costs 0.00528 → total 0.01
    expect(f.ingredients[0]).toEqual({ name: "Penny", percent: 0.00044, amount: 0.004, price: 1200, cost: 0 });
    expect(f.ingredients[1]).toEqual({ name: "Filler", percent: 99.99956, amount: 999.996, price: 0, cost: 0 });
    expect(f.totalCost).toBe(0.01);
    expect(f.nutrients).toEqual({ X: 0.0002 });
  });

  test("amounts round to 3 decimals and the total can differ from the sum of the rounded costs", async () => {
    const f = await detail("thirds");
    // 0.333335 kg → 0.333; 0.666665 kg → 0.667; costs 0.075924 → 0.08 and 0.3084875 → 0.31 (sum 0.39)
    expect(f.ingredients.map((r: { amount: number; cost: number }) => [r.amount, r.cost])).toEqual([
      [0.333, 0.08],
      [0.667, 0.31],
    ]);
    // unrounded: 0.07600038 + 0.30833256 = 0.38433294 → 0.38
    expect(f.totalCost).toBe(0.38);
  });

  test("achieved nutrients are summed, then rounded to 4 decimals (not rounded per row)", async () => {
    // each row gives 0.25 × 0.0002 = 0.00005, which alone would round to 0.0001 (0.0004 in all)
    expect((await detail("quarters")).nutrients).toEqual({ X: 0.0002 });
  });

  test("nutrients are the union of the ingredients' keys in first-seen order; a missing value counts 0", async () => {
    expect((await detail("union")).nutrients).toEqual({ CP: 4.25, Lys: 0.13, X: 0.0001 });
    expect(Object.keys((await detail("union")).nutrients)).toEqual(["CP", "Lys", "X"]);
  });

  test("a row price and formula nutrients given in the file are kept", async () => {
    const f = await detail("own-figures");
    expect(f.ingredients).toEqual([{ name: "Maize", percent: 100, amount: 1000, price: 199.5, cost: 199.5 }]);
    expect(f.nutrients).toEqual({ CP: 9.1, Starch: 64 });
    expect(f.totalCost).toBe(199.5);
  });
});
