/**
 * Issue 26: the solver may never take the service down. A large formula (generated here, in a workspace
 * of its own) solved under a short --solve-timeout: it is cut at the limit with a 503 the client can act
 * on, the server keeps answering meanwhile, the worker is replaced, and every other workspace's
 * optimize and worklist go on answering; the worklist marks the one formula it could not answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import type { SavingsItem } from "../src/schemas/optimize.ts";
import { eventually, startTestServer, type TestServer } from "./helpers/harness.ts";
import { largeFormula, SLOWER_THAN_A_TIME_LIMIT } from "./helpers/large-formula.ts";
import { openTestStore } from "./helpers/store.ts";
import { threadsOf } from "./helpers/threads.ts";

/** A worker loads HiGHS (3.5 MB of WebAssembly) before it is alive: seconds on a loaded 2-core machine; polled, so waiting longer costs nothing when it is quick. */
const WORKER_WAIT_MS = 30_000;

const NOW = "2026-11-23T08:00:00.000Z";
/** Far above a demo formula's solve (a few ms; over 1 s once in a fresh worker at load 25), far below the large one's (about 30 s). */
const TIMEOUT_MS = 3000;
const LARGE = largeFormula(SLOWER_THAN_A_TIME_LIMIT);

let t: TestServer;
let store: AdminStore;
let demoKey: string;
let probeKey: string;

beforeAll(async () => {
  t = await startTestServer({ solver: { timeoutMs: TIMEOUT_MS, workers: 1 } });
  store = await openTestStore(t.dataPath);
  await store.seedDemo(NOW);
  const probe = (await store.createWorkspace("probe", "Fault probe", NOW)).id;
  const ingredients = LARGE.ingredients.map(({ name, category, price, inStock, nutrients }) => ({ name, category, price, inStock, nutrients }));
  await store.importIngredients(probe, JSON.stringify(ingredients), "json", { update: false, now: NOW });
  const { id: _, ...formula } = LARGE.formula;
  await store.importFormulas(probe, readFormulaFile(JSON.stringify([{ id: "huge", ...formula }])), { replace: false, now: NOW });
  // The probe's small formula: the worklist must still answer it.
  const small = { id: "small", name: "Small", species: "Poultry", subcategory: "Test", batchSize: 1000, ingredients: [{ name: "Large 0", percent: 50 }, { name: "Large 1", percent: 50 }] };
  await store.importFormulas(probe, readFormulaFile(JSON.stringify([small])), { replace: false, now: NOW });
  demoKey = t.key();
  probeKey = t.key({ workspace: "probe" });
});
afterAll(async () => {
  await store.close();
  await t.stop();
});

const get = (path: string, key: string) => t.request("GET", path, { key, socket: true });

/** The pool as /readyz reports it. */
async function pool(): Promise<Record<string, number>> {
  const res = await fetch(t.url + "/readyz");
  const header = res.headers.get("x-solver-pool") ?? "";
  return Object.fromEntries(header.split(" ").filter(Boolean).map((p) => p.split("=")).map(([k, v]) => [k!, Number(v)]));
}

describe("a solve past the time limit", () => {
  test("answers 503 `Solver time limit exceeded` with Retry-After, and every workspace's solves answer after it", async () => {
    const res = await get("/v1/formulas/huge/optimize", probeKey);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await res.json()).toEqual({ status: "error", message: "Solver time limit exceeded" });
    for (const [path, key] of [["/v1/formulas/broiler-starter/optimize", demoKey], ["/v1/reports/savings", demoKey], ["/v1/formulas/small/optimize", probeKey]] as const) {
      const after = await get(path, key);
      expect({ path, status: after.status, body: after.status === 200 ? "" : await after.text() }).toEqual({ path, status: 200, body: "" });
    }
    const replaced = t.logs().filter((l) => l.msg === "solver time limit exceeded; worker replaced");
    expect(replaced.length).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await pool()).alive === 1, WORKER_WAIT_MS);
    // The worker that replaced it was handed the HiGHS the first one compiled, so it compiled none.
    const ready = t.logs().filter((l) => l.msg === "solver ready").map((l) => l.compiled);
    expect(ready).toEqual([true, ...replaced.map(() => false)]);
  });

  test("holds nothing else up: /v1/health and a cached read answer while it runs", async () => {
    let settled = false;
    const large = get("/v1/formulas/huge/optimize?include=Large%201", probeKey).then((r) => {
      settled = true;
      return r;
    });
    await eventually(async () => (await pool()).busy === 1, WORKER_WAIT_MS);
    expect((await get("/v1/health", demoKey)).status).toBe(200);
    expect((await get("/v1/ingredients/Maize", demoKey)).status).toBe(200);
    expect(settled).toBe(false);
    expect((await large).status).toBe(503);
  });

  test("the worklist answers every other formula; the one past the limit says why", async () => {
    const res = await get("/v1/reports/savings", probeKey);
    expect(res.status).toBe(200);
    const items: SavingsItem[] = (await res.json()).data;
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get("huge")).toMatchObject({ status: "error", message: "Solver time limit exceeded", optimizedCost: null, saving: null });
    expect(byId.get("huge")!.cost).toBeGreaterThan(0);
    expect(byId.get("small")!.status).toBe("optimal");
    expect(items.at(-1)!.id).toBe("huge");
  });
});

describe("the workers give way to the event loop", () => {
  const [SCHED_OTHER, SCHED_IDLE] = [0, 5];
  // Only Linux gives a thread its own nice value (elsewhere the worker keeps the event loop's priority).
  test.if(process.platform === "linux")("each worker's thread runs at nice 19 under SCHED_IDLE, as do the compiler threads; the event loop's thread keeps its own", async () => {
    await eventually(async () => (await pool()).alive === 1, WORKER_WAIT_MS);
    const threads = threadsOf("self");
    const workers = threads.filter((t) => t.name === "Worker");
    expect(workers.length).toBeGreaterThanOrEqual(1);
    expect(workers.map((w) => w.nice)).toEqual(workers.map(() => 19));
    expect(workers.map((w) => w.policy)).toEqual(workers.map(() => SCHED_IDLE));
    expect(threads.find((t) => t.tid === process.pid)!.nice).toBeLessThan(19);
    expect(threads.find((t) => t.tid === process.pid)!.policy).toBe(SCHED_OTHER);
    expect(t.logs().filter((l) => l.msg === "solver ready").map((l) => [l.nice, l.idle])).toContainEqual([19, true]);
    // JavaScriptCore's compiler threads, which tier up the workers' WebAssembly, give way as well.
    const compilers = threads.filter((c) => c.name === "JITWorker" || c.name === "JSCWarmUp");
    expect(compilers.length).toBeGreaterThanOrEqual(1);
    expect(compilers.map((c) => c.policy)).toEqual(compilers.map(() => SCHED_IDLE));
  });
});

describe("/readyz", () => {
  test("reports the solver pool: workers, alive, busy, queued and the queue's bound", async () => {
    const res = await fetch(t.url + "/readyz");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ready");
    expect(res.headers.get("x-solver-pool")).toMatch(/^workers=1 alive=[01] busy=[01] queued=\d+ max-queue=32 started=\d+$/);
  });
});
