/**
 * The price history lives in two tables: a change appends its entry to `price_log` (no index), and
 * once the log holds FOLD_AT entries changes move it, a step at a time, into the indexed `price_history`
 * (docs/decisions.md#price-history-and-formula-costs). Whatever the split, every history read answers
 * the same, and an acknowledged change's entry survives a crash before any fold.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isoTime } from "../src/domain/time.ts";
import { openDatabase } from "../src/store/db.ts";
import { createKey } from "../src/store/keys.ts";
import { FOLD_AT, FOLD_STEP, foldPriceLog, priceHistory, recordPrice } from "../src/store/price-history.ts";
import { cli, spawnServe, startTestServer, tempDir, TestClock, type TestServer } from "./helpers/harness.ts";

const DAY = 24 * 3600 * 1000;
const count = (db: Database, table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("history reads across the log and the indexed history", () => {
  const clock = new TestClock(Date.parse("2026-10-01T08:00:00.000Z"));
  const [T0, T1, T2, T3] = [0, 1, 2, 3].map((d) => clock.ms + d * DAY) as [number, number, number, number];
  let t: TestServer;
  afterAll(() => t?.stop());

  test("every read answers the same with entries split between the two tables and after a fold; the later of two entries at one instant wins", async () => {
    // The clock jumps days between writes: a quiet period longer than all of them keeps the server from
    // folding the log by itself (src/service/quiet-fold.ts) while the test splits the entries.
    t = await startTestServer({ clock, foldQuietMs: 10 * DAY });
    const key = t.key({ write: true });
    const db = openDatabase(t.dataPath, { create: false });
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { key, body });
      expect(res.status).toBeLessThan(300);
      return (await res.json()).data;
    };
    const fold = () => db.transaction(() => foldPriceLog(db)).immediate();
    for (const [name, price] of [["Maize", 200], ["Soy", 400]] as const) await send("POST", "/v1/ingredients", { name, price, category: "Feed" });
    clock.ms = T1;
    await send("PUT", "/v1/prices/Maize", { price: 210 });
    clock.ms = T2;
    await send("PUT", "/v1/prices/Maize", { price: 220 });
    fold(); // Maize's 220 at T2 is in the history, its 230 at the same instant in the log: 230 was recorded later
    await send("PUT", "/v1/prices/Maize", { price: 230 });
    clock.ms = T3;
    await send("PUT", "/v1/prices/Soy", { price: 375, inStock: false });
    await send("PUT", "/v1/prices/Soy", { price: 380 }); // both in the log at one instant: 380 was recorded later
    await send("POST", "/v1/ingredients", { name: "Late", price: 50, category: "Feed" }); // its every entry in the log
    const file = join(t.dataPath, "..", "formulas.json");
    const lines = [{ name: "Maize", percent: 50 }, { name: "Soy", percent: 30 }, { name: "Late", percent: 20 }];
    writeFileSync(file, JSON.stringify([{ id: "mix", name: "Mix", species: "Swine", subcategory: "Grower", batchSize: 1000, ingredients: lines }]));
    expect((await cli(["import", "formulas", file, "--data", t.dataPath])).code).toBe(0);
    expect([count(db, "price_history"), count(db, "price_log")]).toEqual([4, 4]);

    const at = (ms: number) => encodeURIComponent(isoTime(ms));
    const paths = [
      "/v1/prices/Maize",
      `/v1/prices/Maize?from=${at(T1)}&to=${at(T3)}`,
      "/v1/prices/Late",
      ...[T0 - 1, T0, T1 + 1, T2, T3].map((ms) => `/v1/prices?at=${at(ms)}`),
      `/v1/prices?at=${at(T3)}&inStock=false`,
      ...[T0 - 1, T1, T2, T3].map((ms) => `/v1/formulas/mix/cost?at=${at(ms)}`),
      ...[T0, T2].map((ms) => `/v1/reports/cost-changes?since=${at(ms)}`),
    ];
    const read = async () => Promise.all(paths.map((path) => send("GET", path)));
    const split = await read();

    const maize = split[0] as { history: { price: number; at: string }[] };
    expect(maize.history.map((e) => `${e.price}@${e.at}`)).toEqual([`230@${isoTime(T2)}`, `220@${isoTime(T2)}`, `210@${isoTime(T1)}`, `200@${isoTime(T0)}`]);
    expect((split[1] as typeof maize).history.map((e) => e.price)).toEqual([230, 220, 210]);
    const listed = (i: number) => (split[i] as { name: string; price: number; inStock: boolean }[]).map((r) => `${r.name}:${r.price}:${r.inStock}`);
    expect(listed(3)).toEqual([]); // before every first entry
    expect(listed(4)).toEqual(["Maize:200:true", "Soy:400:true"]);
    expect(listed(5)).toEqual(["Maize:210:true", "Soy:400:true"]);
    expect(listed(6)).toEqual(["Maize:230:true", "Soy:400:true"]);
    expect(listed(7)).toEqual(["Late:50:true", "Maize:230:true", "Soy:380:false"]);
    expect(listed(8)).toEqual(["Soy:380:false"]);
    // Before Late's first entry (in the log) the formula is costed at that first price: 0.5·200 + 0.3·400 + 0.2·50 per kg.
    const cost = (i: number) => (split[i] as { cost: number }).cost;
    expect([cost(9), cost(10), cost(11), cost(12)]).toEqual([230, 235, 245, 239]);

    fold();
    expect([count(db, "price_history"), count(db, "price_log")]).toEqual([8, 0]);
    expect(await read()).toEqual(split);
    db.close();
  });
});

describe("the log folds by itself", () => {
  test(`once the log holds ${FOLD_AT} entries, a write moves one step of about ${FOLD_STEP} entries (whole ingredients, the oldest entry's first), never the whole log`, async () => {
    const tmp = tempDir();
    try {
      const rows = FOLD_AT + 5;
      const csv = ["name,category,price,inStock", ...Array.from({ length: rows }, (_, i) => `Item ${i},Feed,${100 + (i % 50)},yes`)].join("\n");
      writeFileSync(join(tmp.dir, "items.csv"), csv + "\n");
      openDatabase(tmp.dataPath, { create: true }).close();
      const imported = await cli(["import", "ingredients", join(tmp.dir, "items.csv"), "--data", tmp.dataPath]);
      expect(imported.code).toBe(0);
      const db = openDatabase(tmp.dataPath, { create: false });
      // One entry an ingredient: the step took the first FOLD_STEP ingredients, the rest stay logged.
      expect([count(db, "price_history"), count(db, "price_log")]).toEqual([FOLD_STEP, rows - FOLD_STEP]);
      const moved = db.query("SELECT min(ingredient_id) AS lo, max(ingredient_id) AS hi FROM price_history").get() as { lo: number; hi: number };
      expect(moved.hi - moved.lo + 1).toBe(FOLD_STEP);
      expect((db.query("SELECT count(*) AS n FROM price_log WHERE ingredient_id BETWEEN ? AND ?").get(moved.lo, moved.hi) as { n: number }).n).toBe(0);
      for (const name of ["Item 0", `Item ${FOLD_STEP}`, `Item ${rows - 1}`]) expect(priceHistory(db, 1, name).history.map((e) => e.source)).toEqual(["import"]);
      db.close();
    } finally {
      tmp.cleanup();
    }
  });

  test("under a stream of price changes the log never passes its fold size by more than a check's worth, and every read answers from both tables", async () => {
    const t = await startTestServer({ foldQuietMs: 3_600_000 });
    try {
      const key = t.key({ write: true });
      const names = Array.from({ length: 32 }, (_, i) => `Grain ${i}`);
      for (const name of names) expect((await t.request("POST", "/v1/ingredients", { key, body: { name, price: 100 } })).status).toBe(201);
      // The changes themselves straight through the store's recordPrice, in group-commit-sized transactions (fast).
      const db = openDatabase(t.dataPath, { create: false });
      let most = 0;
      const last = new Map<string, number>();
      const changes = FOLD_AT + 3 * FOLD_STEP;
      // Instants after the creations, a second apart.
      const after = Date.now() + DAY;
      for (let start = 0; start < changes; start += 128) {
        db.transaction(() => {
          for (let i = start; i < Math.min(changes, start + 128); i++) {
            const name = names[i % names.length]!;
            const price = 100 + (i % 997) / 10;
            recordPrice(db, 1, name, { price, inStock: true, at: isoTime(after + i * 1000), source: "api" });
            last.set(name, price);
          }
        }).immediate();
        most = Math.max(most, count(db, "price_log"));
      }
      // A whole-log fold would have left it near empty after 16,384; steps keep it just under the size.
      expect(most).toBeLessThan(FOLD_AT + 64);
      expect(count(db, "price_log")).toBeGreaterThan(FOLD_AT - 2 * FOLD_STEP);
      expect(count(db, "price_history") + count(db, "price_log")).toBe(changes + names.length);
      for (const name of names) {
        const history = priceHistory(db, 1, name).history;
        expect(history[0]!.price).toBe(last.get(name)!);
        expect(history).toHaveLength(1 + changes / names.length);
      }
      db.close();
    } finally {
      await t.stop();
    }
  }, 120_000);
});

describe("a crash before a fold", () => {
  test("every acknowledged price change is in the history after kill -9, read from the log, and stays there through a fold", async () => {
    const tmp = tempDir();
    let serve = await spawnServe(tmp.dataPath);
    try {
      const admin = openDatabase(tmp.dataPath, { create: false });
      const { key } = createKey(admin, { workspaceId: 1, write: true, rateLimit: 1_000_000, label: null, now: isoTime(Date.now()) });
      const call = (method: string, path: string, body?: unknown) => fetch(serve.url + path, { method, headers: { "X-API-Key": key }, body: body === undefined ? null : JSON.stringify(body) });
      expect((await call("POST", "/v1/ingredients", { name: "Maize", price: 100 })).status).toBe(201);
      const acknowledged = [100];
      for (let price = 101; price <= 120; price++) {
        expect((await call("PUT", "/v1/prices/Maize", { price })).status).toBe(200);
        acknowledged.push(price);
      }
      expect(await serve.stop("SIGKILL")).not.toBe(0);
      expect(count(admin, "price_log")).toBe(acknowledged.length);
      const newestFirst = [...acknowledged].reverse();
      expect(priceHistory(admin, 1, "Maize").history.map((e) => e.price)).toEqual(newestFirst);

      serve = await spawnServe(tmp.dataPath);
      const prices = async () => ((await (await call("GET", "/v1/prices/Maize")).json()).data.history as { price: number }[]).map((e) => e.price);
      expect(await prices()).toEqual(newestFirst);
      admin.transaction(() => foldPriceLog(admin)).immediate();
      expect(count(admin, "price_log")).toBe(0);
      expect(await prices()).toEqual(newestFirst);
      admin.close();
      expect(await serve.stop("SIGTERM")).toBe(0);
    } finally {
      serve.proc.kill("SIGKILL");
      tmp.cleanup();
    }
  }, 60_000);
});
