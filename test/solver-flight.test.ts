/**
 * Issue 26, points 2 and 4: identical requests in flight share one solve; the queue is bounded (503
 * with Retry-After beyond it, /readyz shows it); the access log's `ms` is the wait the client saw,
 * queueing included; and a conditional request past the rate limit is refused before any solve. The
 * pool's `started` count (X-Solver-Pool on /readyz) tells how many solves ran.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { eventually, startTestServer, type TestServer } from "./helpers/harness.ts";
import { largeFormula, SLOWER_THAN_A_TIME_LIMIT } from "./helpers/large-formula.ts";
import { openTestStore } from "./helpers/store.ts";

/** A worker loads HiGHS (3.5 MB of WebAssembly) before it is alive: seconds on a loaded 2-core machine; polled, so waiting longer costs nothing when it is quick. */
const WORKER_WAIT_MS = 30_000;

const NOW = "2026-11-23T08:00:00.000Z";
/** The large formula runs into it (about 30 s unlimited); a demo formula solves in milliseconds. */
const TIMEOUT_MS = 3000;
const LARGE = largeFormula(SLOWER_THAN_A_TIME_LIMIT);
const MAX_QUEUE = 2;

let t: TestServer;
let store: AdminStore;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ solver: { timeoutMs: TIMEOUT_MS, workers: 1, maxQueue: MAX_QUEUE } });
  store = await openTestStore(t.dataPath);
  await store.seedDemo(NOW);
  const ingredients = LARGE.ingredients.map(({ name, category, price, inStock, nutrients }) => ({ name, category, price, inStock, nutrients }));
  await store.importIngredients(1, JSON.stringify(ingredients), "json", { update: false, now: NOW });
  const { id: _, ...formula } = LARGE.formula;
  await store.importFormulas(1, readFormulaFile(JSON.stringify([{ id: "huge", ...formula }])), { replace: false, now: NOW });
  key = t.key();
});
afterAll(async () => {
  await store.close();
  await t.stop();
});

const get = (path: string, headers: Record<string, string> = {}, k = key) => t.request("GET", path, { key: k, headers, socket: true });

/** The pool as /readyz reports it. */
async function pool(): Promise<Record<string, number>> {
  const header = (await fetch(t.url + "/readyz")).headers.get("x-solver-pool") ?? "";
  return Object.fromEntries(header.split(" ").filter(Boolean).map((p) => p.split("=")).map(([k, v]) => [k!, Number(v)]));
}

describe("single-flight", () => {
  test("three identical uncached requests in flight are one solve, and get the same answer", async () => {
    await eventually(async () => (await pool()).alive === 1, WORKER_WAIT_MS);
    const before = (await pool()).started!;
    const path = "/v1/formulas/broiler-starter/optimize?price=Maize%3D231";
    const answers = await Promise.all([get(path), get(path), get(path)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(answers.map(async (r) => (await r.json()).data));
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    expect((await pool()).started).toBe(before + 1);
  });
});

describe("the queue", () => {
  test("is bounded: beyond it a solve is refused at once with 503 and Retry-After; /readyz shows it", async () => {
    await eventually(async () => (await pool()).alive === 1, WORKER_WAIT_MS);
    // One worker: a large solve runs, two small ones wait, two more are refused.
    const large = get("/v1/formulas/huge/optimize?price=Large%200%3D101");
    await eventually(async () => (await pool()).busy === 1, WORKER_WAIT_MS);
    const small = [1, 2, 3, 4].map((i) => get(`/v1/formulas/broiler-starter/optimize?price=Maize%3D${240 + i}`));
    await eventually(async () => (await pool()).queued === MAX_QUEUE, WORKER_WAIT_MS);
    const answers = await Promise.all(small);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 503, 503]);
    for (const refused of answers.filter((r) => r.status === 503)) {
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).message).toBe("Solver busy: too many solves waiting");
    }
    expect((await large).status).toBe(503);
  });

  test("the access log's ms is the time the client waited, the wait in the queue included", async () => {
    await eventually(async () => (await pool()).alive === 1, WORKER_WAIT_MS);
    const large = get("/v1/formulas/huge/optimize?price=Large%200%3D99");
    await eventually(async () => (await pool()).busy === 1, WORKER_WAIT_MS);
    const started = performance.now();
    const res = await get("/v1/formulas/layer-phase-1/optimize?price=Maize%3D232", { "X-Request-Id": "queued-behind-large" });
    const waited = performance.now() - started;
    expect(res.status).toBe(200);
    expect((await large).status).toBe(503);
    const line = t.logs().find((l) => l.requestId === "queued-behind-large")!;
    // It waited for the large solve's time limit; the log says so (a little less: the client's own hops).
    expect(waited).toBeGreaterThan(TIMEOUT_MS / 2);
    expect(line.ms as number).toBeGreaterThan(waited / 2);
  });
});

describe("the rate limit comes before any work", () => {
  test("20 concurrent conditional optimizations from a key limited to 1 an hour: one solve, 19 refusals", async () => {
    await eventually(async () => (await pool()).alive === 1 && (await pool()).busy === 0, WORKER_WAIT_MS);
    const limited = t.key({ rateLimit: 1 });
    const before = (await pool()).started!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(`/v1/formulas/broiler-starter/optimize?price=Maize%3D${300 + i}`, { "If-None-Match": '"not-this-one"' }, limited)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...new Array(19).fill(401)]);
    expect((await pool()).started).toBe(before + 1);
  });
});
