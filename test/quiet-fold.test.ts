/**
 * The price log folds when writes go quiet (src/service/quiet-fold.ts): after a burst of writes and a
 * quiet period the log is empty and every history read answers as before; the fold is one write of the
 * group commit, so a write queued beside it is never lost. The timer and the clock are the test's own.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { isoTime } from "../src/domain/time.ts";
import { foldWhenQuiet, type Timer } from "../src/service/quiet-fold.ts";
import { openDatabase } from "../src/store/db.ts";
import { insertIngredient } from "../src/store/ingredient-changes.ts";
import { priceHistory, recordPrice } from "../src/store/price-history.ts";
import { WriteQueue } from "../src/store/write-queue.ts";
import { startTestServer, tempDir, TestClock, type TestServer } from "./helpers/harness.ts";

const QUIET = 2_000;
const count = (db: Database, table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const tables = (db: Database) => [count(db, "price_history"), count(db, "price_log")];

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

/** A data file with Maize, its write queue, and a fold on a clock and timer the test moves by hand. */
function setup() {
  const tmp = tempDir();
  const db = openDatabase(tmp.dataPath, { create: true });
  const clock = new TestClock(Date.parse("2026-10-01T08:00:00.000Z"));
  const pending: { work: () => void; ms: number }[] = [];
  const timer: Timer = (work, ms) => {
    const entry = { work, ms };
    pending.push(entry);
    return () => pending.splice(pending.indexOf(entry), 1);
  };
  let commits = 0;
  const writes = new WriteQueue(db, undefined, () => {
    commits++;
    fold.wrote();
  });
  const errors: unknown[] = [];
  const fold = foldWhenQuiet(db, writes, { clock: clock.now, quietMs: QUIET, timer, onError: (e) => errors.push(e) });
  let price = 100;
  const put = () => writes.run(() => recordPrice(db, 1, "Maize", { price: ++price, inStock: true, at: isoTime(clock.ms), source: "api" }));
  /** The one armed timer fires (as the event loop would once its time has passed). */
  const fire = () => {
    expect(pending).toHaveLength(1);
    const [next] = pending.splice(0, 1);
    next!.work();
    return next!.ms;
  };
  cleanup = () => {
    fold.stop();
    writes.close();
    db.close();
    tmp.cleanup();
  };
  return { db, clock, pending, writes, fold, put, fire, errors, commits: () => commits, setupDone: writes.run(() => insertIngredient(db, 1, { name: "Maize", category: "Feed", price: 100, inStock: true, nutrients: {} }, "api", isoTime(clock.ms))) };
}

describe("folding the price log when writes go quiet", () => {
  test("a burst of writes keeps one timer; it folds only once no write has committed for the quiet period, then stays idle", async () => {
    const { db, clock, pending, put, fire, commits, errors, setupDone } = setup();
    await setupDone;
    await Promise.all([put(), put(), put()]);
    expect(pending).toHaveLength(1);
    clock.advance(1_500);
    await put(); // the quiet period starts again; still one timer
    expect(pending).toHaveLength(1);
    clock.advance(500);
    expect(fire()).toBe(QUIET); // 500 ms quiet: armed again for the remaining 1,500
    expect(pending.map((p) => p.ms)).toEqual([1_500]);
    const before = priceHistory(db, 1, "Maize");
    expect(tables(db)).toEqual([0, 5]);

    clock.advance(1_500);
    fire();
    const committed = commits();
    await Bun.sleep(0); // the fold is queued like any write: it commits before the current microtasks end
    expect(commits()).toBe(committed + 1);
    expect(tables(db)).toEqual([5, 0]);
    expect(priceHistory(db, 1, "Maize")).toEqual(before);

    // The fold's own commit arms the timer once more; with the log empty nothing is written.
    clock.advance(QUIET);
    fire();
    await Bun.sleep(0);
    expect(commits()).toBe(committed + 1);
    expect(pending).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  test("a write queued beside the fold is kept, whichever is queued first", async () => {
    const { db, clock, put, fire, setupDone } = setup();
    await setupDone;
    await put();
    clock.advance(QUIET);
    const after = put(); // queued before the fold: folded with the rest
    fire();
    await after;
    expect(tables(db)).toEqual([3, 0]); // the ingredient's first entry and both writes

    await put();
    clock.advance(QUIET);
    fire();
    const during = put(); // queued after the fold, in the same commit: recorded into the emptied log
    await during;
    expect(tables(db)).toEqual([4, 1]);
    expect(priceHistory(db, 1, "Maize").history.map((e) => e.price)).toEqual([104, 103, 102, 101, 100]);
  });

  test("stop cancels the armed timer", async () => {
    const { pending, put, fold, setupDone } = setup();
    await setupDone;
    await put();
    expect(pending).toHaveLength(1);
    fold.stop();
    expect(pending).toHaveLength(0);
  });
});

describe("the server folds its log when writes go quiet", () => {
  let t: TestServer;
  afterEach(() => t?.stop());

  test("after a burst of PUTs and the quiet period the log is empty and every history route answers the same", async () => {
    const clock = new TestClock(Date.parse("2026-10-01T08:00:00.000Z"));
    const start = clock.ms;
    // The timer is real and short; the test's clock decides when writes have been quiet long enough. It
    // moves 1 ms between writes (under the quiet period, so the burst is never folded half-way).
    t = await startTestServer({ clock, foldQuietMs: 20 });
    const key = t.key({ write: true });
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { key, body, socket: true });
      expect(res.status).toBeLessThan(300);
      return (await res.json()).data;
    };
    for (const name of ["Maize", "Soy"]) await send("POST", "/v1/ingredients", { name, price: 200, category: "Feed" });
    for (let step = 1; step <= 5; step++) {
      clock.ms = start + step;
      await Promise.all([send("PUT", "/v1/prices/Maize", { price: 200 + step }), send("PUT", "/v1/prices/Soy", { price: 300 - step, inStock: step % 2 === 0 })]);
    }
    const db = t.service.db!;
    const at = (step: number) => encodeURIComponent(isoTime(start + step));
    const paths = [
      "/v1/prices/Maize",
      `/v1/prices/Soy?from=${at(2)}&to=${at(4)}`,
      ...[0, 2, 5].map((step) => `/v1/prices?at=${at(step)}`),
      `/v1/prices?at=${at(3)}&inStock=false`,
    ];
    const read = () => Promise.all(paths.map((path) => send("GET", path)));
    const logged = await read();
    expect(tables(db)).toEqual([0, 12]);

    clock.advance(QUIET);
    const deadline = Date.now() + 10_000;
    while (count(db, "price_log") > 0 && Date.now() < deadline) await Bun.sleep(5);
    expect(tables(db)).toEqual([12, 0]);
    // A key made in the file by another connection moves the data generation: the reads below are built again, not served from the cache.
    const fresh = t.key({ write: true });
    const again = await Promise.all(paths.map(async (path) => (await (await t.request("GET", path, { key: fresh, socket: true })).json()).data));
    expect(again).toEqual(logged);
  });
});
