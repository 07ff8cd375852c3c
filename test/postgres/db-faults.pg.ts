/**
 * PostgreSQL only (make test-postgres), issue 29 item 1: the database stopped, stalled (SIGSTOP) or
 * holding a table lock under a running server. Every keyed request gets a prompt 503 `Database
 * unavailable` with Retry-After (as a full disk gets `Storage full`), sent before Bun closes an idle
 * connection at 10 s, and logged with the status that was sent; /readyz answers within its own timeout;
 * everything recovers by itself once the database is back.
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import { READY_TIMEOUT_MS } from "../../src/http/readiness.ts";
import { eventually, startTestServer, type TestServer } from "../helpers/harness.ts";
import { startCluster, stallCluster, stopCluster } from "../helpers/pg-cluster.ts";
import { databaseFor } from "../helpers/postgres.ts";

/** A request over a socket (so Bun's idle close would show), with its own request id. */
async function send(t: TestServer, method: string, path: string, key: string, requestId: string, body?: unknown): Promise<Response> {
  return t.request(method, path, { key, socket: true, headers: { "X-Request-Id": requestId }, ...(body !== undefined ? { body } : {}) });
}

/** The answer is the 503 the issue asks for, and the access log says what was sent. */
async function expectUnavailable(t: TestServer, res: Response, requestId: string): Promise<void> {
  expect({ requestId, status: res.status }).toEqual({ requestId, status: 503 });
  expect(await res.json()).toEqual({ status: "error", message: "Database unavailable" });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("x-request-id")).toBe(requestId);
  const line = t.logs().find((l) => l.requestId === requestId);
  expect(line?.status).toBe(503);
}

/** /readyz while the fault lasts: a 503 within its own timeout (and a margin for a loaded machine). */
async function expectNotReady(t: TestServer): Promise<string[]> {
  const started = performance.now();
  const res = await fetch(t.url + "/readyz");
  const took = performance.now() - started;
  expect(res.status).toBe(503);
  expect(took).toBeLessThan(READY_TIMEOUT_MS + 2_000);
  return ((await res.json()) as { failed: string[] }).failed;
}

/** Once the database is back, reads and writes succeed again without a restart. */
async function expectRecovered(t: TestServer, key: string): Promise<void> {
  await eventually(async () => (await t.request("PUT", "/v1/prices/Maize", { key, body: { price: 120 } })).status === 200, 20_000);
  await eventually(async () => (await fetch(t.url + "/readyz")).status === 200, 10_000);
}

async function serverWithMaize(): Promise<{ t: TestServer; writer: string }> {
  const t = await startTestServer();
  const writer = t.key({ write: true });
  expect((await t.request("POST", "/v1/ingredients", { key: writer, body: { name: "Maize", price: 100 } })).status).toBe(201);
  expect((await t.request("PUT", "/v1/prices/Maize", { key: writer, body: { price: 101 } })).status).toBe(200);
  return { t, writer };
}

describe("PostgreSQL down, stalled or locked under a running server", () => {
  test("stopped: every keyed request answers 503 Database unavailable with Retry-After, /readyz 503; all recovers once it is back", async () => {
    const { t, writer } = await serverWithMaize();
    // Keys the server has not seen yet: finding them needs the database.
    const [fresh1, fresh2] = [t.key(), t.key()];
    try {
      stopCluster();
      try {
        await expectUnavailable(t, await send(t, "GET", "/v1/health", fresh1, "down-health"), "down-health");
        await expectUnavailable(t, await send(t, "GET", "/v1/ingredients/Maize", fresh2, "down-get"), "down-get");
        await expectUnavailable(t, await send(t, "PUT", "/v1/prices/Maize", writer, "down-put", { price: 102 }), "down-put");
        expect(await expectNotReady(t)).toContain("database read");
        expect(t.logs().some((l) => l.msg === "unhandled error")).toBe(false);
      } finally {
        startCluster();
      }
      await expectRecovered(t, writer);
    } finally {
      await t.stop();
    }
  }, 60_000);

  test("stalled (SIGSTOP): reads and writes get their 503 before the idle close, logged as sent; /readyz answers within its timeout", async () => {
    const { t, writer } = await serverWithMaize();
    const [fresh, leaving] = [t.key(), t.key()];
    try {
      // Resumed after 20 s whatever happens; the answers are due long before (Bun closes idle connections at 10 s).
      const resume = stallCluster(20_000);
      try {
        const [get, put, failed] = await Promise.all([
          send(t, "GET", "/v1/ingredients/Maize", fresh, "stall-get"),
          send(t, "PUT", "/v1/prices/Maize", writer, "stall-put", { price: 103 }),
          expectNotReady(t),
        ]);
        await expectUnavailable(t, get, "stall-get");
        await expectUnavailable(t, put, "stall-put");
        expect(failed).toContain("database read");
        // A client that gives up first: its line says the answer was not sent, not a plain 503 (or 200).
        const gaveUp = new AbortController();
        const leftEarly = fetch(t.url + "/v1/ingredients/Maize", { headers: { "X-API-Key": leaving, "X-Request-Id": "stall-left" }, signal: gaveUp.signal });
        setTimeout(() => gaveUp.abort(), 200);
        await expect(leftEarly).rejects.toThrow();
        await eventually(() => t.logs().some((l) => l.requestId === "stall-left"), 10_000);
        expect(t.logs().find((l) => l.requestId === "stall-left")).toMatchObject({ status: 503, sent: false });
      } finally {
        resume();
      }
      await expectRecovered(t, writer);
    } finally {
      await t.stop();
    }
  }, 60_000);

  test("LOCK TABLE ingredients held: a write and an uncached read answer 503 while it is held, /readyz is not ready; all recovers once released", async () => {
    const { t, writer } = await serverWithMaize();
    const fresh = t.key();
    const holder = new SQL(databaseFor(t.dataPath)!, { max: 1 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.begin(async (tx) => {
      await tx`LOCK TABLE ingredients`;
      locked();
      await released;
    });
    try {
      await isLocked;
      const [put, get, failed] = await Promise.all([
        send(t, "PUT", "/v1/prices/Maize", writer, "lock-put", { price: 104 }),
        send(t, "GET", "/v1/ingredients/Maize", fresh, "lock-get"),
        expectNotReady(t),
      ]);
      await expectUnavailable(t, put, "lock-put");
      await expectUnavailable(t, get, "lock-get");
      expect(failed).toContain("database read");
      release();
      await holding;
      await expectRecovered(t, writer);
    } finally {
      release();
      await holding.catch(() => {});
      await holder.close();
      await t.stop();
    }
  }, 60_000);
});
