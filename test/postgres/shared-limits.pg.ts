/**
 * PostgreSQL only (make test-postgres): a key's rate limit across instances on one database
 * (src/limiter/shared-counts.ts). Two limiters, each with its own connection and instance id, on a
 * fresh database, their clocks moved by hand and their exchanges run by the test.
 */
import type { SQL } from "bun";
import { afterAll, describe, expect, test } from "bun:test";
import { SharedCounts } from "../../src/limiter/shared-counts.ts";
import type { CountRow } from "../../src/store/rate-count-rows.ts";
import { SlidingWindowLimiter } from "../../src/limiter/sliding-window.ts";
import { openPostgres } from "../../src/store/pg/connect.ts";
import { pgSharedCounts } from "../../src/store/pg/rate-counts.ts";
import { TestClock, tempDir } from "../helpers/harness.ts";
import { databaseFor } from "../helpers/postgres.ts";

const WINDOW = 3_600_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh database and a way to start instances on it. */
async function database() {
  const tmp = tempDir();
  const url = databaseFor(tmp.dataPath)!;
  const clock = new TestClock();
  const connections: SQL[] = [];
  cleanups.push(async () => {
    for (const sql of connections) await sql.close();
    tmp.cleanup();
  });
  let started = 0;
  return {
    clock,
    tmpPath: tmp.dataPath,
    async instance() {
      const sql = await openPostgres(url, { max: 2 });
      connections.push(sql);
      const counts = new SharedCounts(pgSharedCounts(sql), { instance: `i${++started}`, clock: clock.now, windowMs: WINDOW });
      await counts.exchange();
      const limiter = new SlidingWindowLimiter({ clock: clock.now, windowMs: WINDOW, shared: counts });
      /** How many of `n` requests of key k (limit `limit`) this instance accepts now. */
      const accepts = (n: number, limit: number) => Array.from({ length: n }, () => limiter.check("k", limit).allowed).filter(Boolean).length;
      return { sql, counts, limiter, accepts };
    },
  };
}

describe("rate limits across instances on one PostgreSQL database", () => {
  test("once they have exchanged, two instances together accept a key's limit and no more", async () => {
    const db = await database();
    const [a, b] = [await db.instance(), await db.instance()];
    expect(a.accepts(6, 10)).toBe(6);
    await a.counts.exchange();
    await b.counts.exchange();
    expect(b.accepts(10, 10)).toBe(4);
    expect(b.limiter.check("k", 10, false).remaining).toBe(0);
    await b.counts.exchange();
    await a.counts.exchange();
    expect(a.accepts(1, 10)).toBe(0);
  }, 30_000);

  test("between exchanges the overshoot is at most what the other accepted since the last one", async () => {
    const db = await database();
    const [a, b] = [await db.instance(), await db.instance()];
    expect(a.accepts(3, 10)).toBe(3);
    await a.counts.exchange();
    await b.counts.exchange();
    // Both take what they believe is left before hearing of each other: b's 7 on top of a's 7 since the exchange.
    expect(a.accepts(10, 10)).toBe(7);
    expect(b.accepts(10, 10)).toBe(7);
    await a.counts.exchange();
    await b.counts.exchange();
    await a.counts.exchange();
    expect([a.accepts(1, 10), b.accepts(1, 10)]).toEqual([0, 0]);
  }, 30_000);

  test("with one instance the limit is exact, and its counts survive its restart", async () => {
    const db = await database();
    const first = await db.instance();
    expect(first.accepts(12, 10)).toBe(10);
    await first.counts.stop();
    const restarted = await db.instance();
    expect(restarted.accepts(5, 10)).toBe(0);
    // An hour later the window is empty again, for the restarted instance too.
    db.clock.advance(WINDOW + 1000);
    await restarted.counts.exchange();
    expect(restarted.accepts(12, 10)).toBe(10);
  }, 30_000);
});

describe("the exchange's change feed", () => {
  test("a count committed after a newer one was read is still heard (ids, not arrival order)", async () => {
    const db = await database();
    const [a, b] = [await db.instance(), await db.instance()];
    const late = await db.instance();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    // `late` writes 4 in a transaction that stays open while `a` writes 2 and commits, and `b` reads.
    const slow = late.sql.begin(async (tx) => {
      await pgSharedCounts(tx as unknown as SQL).add("late", [{ keyId: "k", second: Math.floor(db.clock.now() / 1000), count: 4 }]);
      written();
      await held;
    });
    await wrote;
    expect(a.accepts(2, 10)).toBe(2);
    await a.counts.exchange();
    await b.counts.exchange();
    expect(b.counts.othersInWindow("k")).toBe(2);
    release();
    await slow;
    await b.counts.exchange();
    expect(b.counts.othersInWindow("k")).toBe(6);
  }, 30_000);
});

describe("an outage of the exchange", () => {
  test("is told once, not at every exchange, and its recovery once; nothing accepted meanwhile is lost", async () => {
    const db = await database();
    const other = await db.instance();
    const sql = await openPostgres(databaseFor(db.tmpPath)!, { max: 2 });
    cleanups.push(() => sql.close());
    // The real store, with its writes failing while `away` is set: the database is out of reach.
    let away = false;
    const real = pgSharedCounts(sql);
    const flaky = { ...real, add: (instance: string, rows: CountRow[]) => (away ? Promise.reject(new Error("connection refused")) : real.add(instance, rows)) };
    const told: string[] = [];
    const counts = new SharedCounts(flaky, { instance: "flaky", clock: db.clock.now, windowMs: WINDOW, onError: () => told.push("error"), onRecovered: () => told.push("recovered") });
    const limiter = new SlidingWindowLimiter({ clock: db.clock.now, windowMs: WINDOW, shared: counts });
    away = true;
    for (let i = 0; i < 3; i++) limiter.check("k", 10);
    for (let i = 0; i < 5; i++) await counts.exchange();
    expect(told).toEqual(["error"]);
    away = false;
    await counts.exchange();
    await counts.exchange();
    expect(told).toEqual(["error", "recovered"]);
    await other.counts.exchange();
    expect(other.counts.othersInWindow("k")).toBe(3);
  }, 30_000);
});
