/**
 * Imports announce what they change: the same events the API fires for the same changes, in the
 * import's transaction, in file order, delivered by the running server to a real receiver; none with
 * `--no-events` (the history is recorded all the same).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { isoTime } from "../src/domain/time.ts";
import { cli, eventually, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

const FORMULAS = JSON.stringify([
  { id: "starter", name: "Starter", species: "Poultry", subcategory: "Starter", batchSize: 1000, ingredients: [{ name: "Maize", percent: 60 }, { name: "Soy", percent: 40 }] },
  { id: "grower", name: "Grower", species: "Poultry", subcategory: "Grower", batchSize: 2000, ingredients: [{ name: "Maize", percent: 100 }] },
]);
const ALL_EVENTS = "price.updated,ingredient.added,formula.cost_changed";

let t: TestServer;
let db: AdminStore;
const tmp = tempDir();
const recorders: Recorder[] = [];
let workspaces = 0;

beforeAll(async () => {
  t = await startTestServer({ webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
  db = await openTestStore(t.dataPath);
});
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
  await db.close();
  await t.stop();
  tmp.cleanup();
});

function file(name: string, text: string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  return path;
}

/** A workspace with Maize, Soy, Salt and the two formulas, and a receiver of every event type. */
async function workspace(): Promise<{ slug: string; key: string; receiver: Recorder; delivered(): { event: string; body: Record<string, unknown> }[] }> {
  const slug = `imp-${++workspaces}`;
  const ws = await db.createWorkspace(slug, slug, isoTime(Date.now()));
  const key = t.key({ write: true, workspace: slug });
  const seed = file(`${slug}.csv`, "name,category,price,inStock\nMaize,Cereals,200,yes\nSoy,Protein meals,400,yes\nSalt,Minerals,100,yes\n");
  expect((await cli(["import", "ingredients", seed, "--workspace", slug, "--no-events", "--data", t.dataPath])).code).toBe(0);
  await db.importFormulas(ws.id, readFormulaFile(FORMULAS), { replace: false, now: isoTime(Date.now()) });
  const receiver = startRecorder();
  recorders.push(receiver);
  expect((await cli(["webhook", "add", receiver.url, "--workspace", slug, "--events", ALL_EVENTS, "--data", t.dataPath])).code).toBe(0);
  // Bodies without their timestamps: the instants differ between two workspaces, nothing else may.
  const delivered = () =>
    [...receiver.requests]
      .sort((a, b) => Number(a.headers["x-webhook-event-id"]) - Number(b.headers["x-webhook-event-id"]))
      .map((r) => ({ event: r.headers["x-webhook-event"]!, body: { ...r.json, timestamp: undefined } }));
  return { slug, key, receiver, delivered };
}

describe("import prices fires what the API fires", () => {
  test("price.updated then formula.cost_changed per row, in file order, equal to the PUTs' events; an unchanged row fires nothing", async () => {
    const api = await workspace();
    for (const [name, body] of [["Soy", { price: 410 }], ["Salt", { price: 100 }], ["Maize", { price: 220, inStock: false }]] as const) {
      expect((await t.request("PUT", `/v1/prices/${name}`, { key: api.key, body })).status).toBe(200);
    }
    const imported = await workspace();
    const r = await cli(["import", "prices", file("week.csv", "name,price,inStock\nSoy,410,\nSalt,100,\nMaize,220,no\n"), "--workspace", imported.slug, "--data", t.dataPath]);
    expect(r.stdout).toBe(`2 changed, 1 unchanged (workspace ${imported.slug})\n`);

    await eventually(() => api.receiver.requests.length === 4 && imported.receiver.requests.length === 4);
    expect(imported.delivered().map((d) => d.event)).toEqual(["price.updated", "formula.cost_changed", "price.updated", "formula.cost_changed"]);
    expect(imported.delivered()).toEqual(api.delivered());
    expect(imported.delivered()[3]!.body).toMatchObject({ ingredient: "Maize", old_price: 200, new_price: 220 });
  });

  test("--no-events fires none and still records the history", async () => {
    const ws = await workspace();
    const r = await cli(["import", "prices", file("quiet.csv", "name,price\nMaize,230\n"), "--workspace", ws.slug, "--no-events", "--data", t.dataPath]);
    expect(r.stdout).toBe(`1 changed, 0 unchanged (workspace ${ws.slug})\n`);
    const events = await (await t.request("GET", "/v1/events", { key: ws.key })).json();
    expect(events.data).toEqual([]);
    const prices = await (await t.request("GET", "/v1/prices/Maize", { key: ws.key })).json();
    expect(prices.data.history.map((h: { price: number }) => h.price)).toEqual([230, 200]);
  });

  test("a refused file fires nothing", async () => {
    const ws = await workspace();
    const r = await cli(["import", "prices", file("bad.csv", "name,price\nMaize,230\nBarley,1\n"), "--workspace", ws.slug, "--data", t.dataPath]);
    expect(r.code).toBe(1);
    const events = await (await t.request("GET", "/v1/events", { key: ws.key })).json();
    expect(events.data).toEqual([]);
  });
});

describe("import ingredients fires what the API fires", () => {
  test("ingredient.added for new rows and price.updated (+ formula.cost_changed) for --update rows, in file order, equal to POST and PUT", async () => {
    const api = await workspace();
    expect((await t.request("POST", "/v1/ingredients", { key: api.key, body: { name: "Oats", category: "Cereals", price: 199, inStock: true, nutrients: { CP: 11 } } })).status).toBe(201);
    expect((await t.request("PUT", "/v1/prices/Maize", { key: api.key, body: { price: 210 } })).status).toBe(200);
    expect((await t.request("POST", "/v1/ingredients", { key: api.key, body: { name: "Barley", category: "Cereals", price: 214, inStock: true } })).status).toBe(201);
    expect((await t.request("PUT", "/v1/prices/Soy", { key: api.key, body: { price: 390 } })).status).toBe(200);

    const imported = await workspace();
    const csv = "name,category,price,inStock,CP\nOats,Cereals,199,yes,11\nMaize,Cereals,210,yes,\nBarley,Cereals,214,yes,\nSalt,Minerals,100,yes,\nSoy,Protein meals,390,yes,\n";
    const r = await cli(["import", "ingredients", file("mixed.csv", csv), "--update", "--workspace", imported.slug, "--data", t.dataPath]);
    expect(r.stdout).toBe(`Imported 5 ingredients into workspace ${imported.slug} (2 new, 3 updated)\n`);

    await eventually(() => api.receiver.requests.length === 6 && imported.receiver.requests.length === 6);
    expect(imported.delivered().map((d) => d.event)).toEqual(["ingredient.added", "price.updated", "formula.cost_changed", "ingredient.added", "price.updated", "formula.cost_changed"]);
    expect(imported.delivered()).toEqual(api.delivered());
  });

  test("a plain import fires ingredient.added per row in file order; --no-events none", async () => {
    const ws = await workspace();
    const r = await cli(["import", "ingredients", file("new.csv", "name,category,price,inStock\nWheat,Cereals,230,yes\nRye,Cereals,190,yes\n"), "--workspace", ws.slug, "--data", t.dataPath]);
    expect(r.code).toBe(0);
    await eventually(() => ws.receiver.requests.length === 2);
    expect(ws.delivered().map((d) => d.body.ingredient)).toEqual(["Wheat", "Rye"]);
    const quiet = await cli(["import", "ingredients", file("quiet2.csv", "name,category,price,inStock\nTriticale,Cereals,200,yes\n"), "--workspace", ws.slug, "--no-events", "--data", t.dataPath]);
    expect(quiet.code).toBe(0);
    const events = await (await t.request("GET", "/v1/events", { key: ws.key })).json();
    expect(events.data.map((e: { payload: { ingredient: string } }) => e.payload.ingredient)).toEqual(["Wheat", "Rye"]);
  });
});
