import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { isoTime } from "../src/domain/time.ts";
import { createLogger } from "../src/log.ts";
import { startService } from "../src/service.ts";
import type { DataLocation } from "../src/store/location.ts";
import type { EventType } from "../src/domain/events.ts";
import { VERSION } from "../src/version.ts";
import { generateSecret } from "../src/webhooks/secret.ts";
import { eventually, startTestServer, tempDir, TestClock, type TestServer } from "./helpers/harness.ts";
import { databaseFor } from "./helpers/postgres.ts";
import { openTestStore } from "./helpers/store.ts";
import { gate, independentHex, independentStandard, startRecorder, type Recorder } from "./helpers/webhooks.ts";

// Retries 50 ms apart so a whole schedule runs in a blink; the real one is tested in webhook-retry.test.ts.
const FAST = { retrySchedule: [0.05, 0.05, 0.05] };

let t: TestServer;
let db: AdminStore;
let workspaces = 0;
const recorders: Recorder[] = [];

beforeAll(async () => {
  t = await startTestServer({ webhooks: FAST });
  db = await openTestStore(t.dataPath);
});
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
  await db.close();
  await t.stop();
});

const ok = () => new Response(null, { status: 204 });
const status = (code: number, headers?: Record<string, string>) => new Response(null, { status: code, headers });

function recorder(...args: Parameters<typeof startRecorder>): Recorder {
  const r = startRecorder(...args);
  recorders.push(r);
  return r;
}

/** A fresh workspace per test, so each test's webhooks see only its own events. */
async function workspace(server: TestServer = t, handle: AdminStore = db) {
  const slug = `ws-${++workspaces}`;
  const ws = await handle.createWorkspace(slug, slug, isoTime(Date.now()));
  const key = server.key({ write: true, workspace: slug });
  return {
    id: ws.id,
    post: (body: unknown) => server.request("POST", "/v1/ingredients", { key, body }),
    put: (name: string, body: unknown) => server.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key, body }),
    /** The workspace's events as GET /v1/events lists them. */
    events: async (): Promise<unknown[]> => (await (await server.request("GET", "/v1/events", { key })).json()).data,
    async hook(url: string, options: { events?: EventType[]; secret?: string } = {}) {
      const secret = options.secret ?? generateSecret();
      const id = await handle.createWebhook({ workspaceId: ws.id, url, secret, events: options.events ?? null, now: isoTime(Date.now()) });
      return { id, secret };
    },
  };
}

const deliveriesOf = async (webhookId: string, handle: AdminStore = db) => await handle.listDeliveries({ webhookId, limit: 1000 });
const attemptLogs = (deliveryId: string, server: TestServer = t) => server.logs().filter((l) => l.msg === "webhook attempt" && l.deliveryId === deliveryId);

describe("webhook delivery", () => {
  test("each subscribed, enabled webhook gets the spec's exact payload with both signatures valid", async () => {
    const ws = await workspace();
    const all = recorder();
    const pricesOnly = recorder();
    const disabled = recorder();
    const a = await ws.hook(all.url);
    const b = await ws.hook(pricesOnly.url + "prices", { events: ["price.updated"], secret: "correct horse battery staple" });
    const c = await ws.hook(disabled.url);
    await db.setWebhookEnabled(c.id, false, "test");

    const created = (await (await ws.post({ name: "Soybean meal 48%", category: "Protein meals", price: 455 })).json()).data;
    const updated = (await (await ws.put("Soybean meal 48%", { price: 462.5 })).json()).data;
    expect((await ws.put("Soybean meal 48%", { price: 462.5, inStock: false })).status).toBe(200); // no price change: no event

    await eventually(() => all.requests.length === 2 && pricesOnly.requests.length === 1);
    const [added, changed] = all.requests;
    expect(added!.text).toBe(JSON.stringify({ ingredient: "Soybean meal 48%", category: "Protein meals", price: 455, timestamp: created.createdAt }));
    expect(changed!.text).toBe(JSON.stringify({ ingredient: "Soybean meal 48%", old_price: 455, new_price: 462.5, timestamp: updated.updatedAt }));
    expect(pricesOnly.requests[0]!.text).toBe(changed!.text);

    for (const [req, secret, event] of [
      [added!, a.secret, "ingredient.added"],
      [changed!, a.secret, "price.updated"],
      [pricesOnly.requests[0]!, b.secret, "price.updated"],
    ] as const) {
      const h = req.headers;
      expect(h["content-type"]).toBe("application/json");
      expect(h["x-webhook-event"]).toBe(event);
      expect(h["user-agent"]).toBe(`feedbase/${VERSION}`);
      expect(h["webhook-id"]).toMatch(/^dlv_[0-9A-Za-z]{16}$/);
      expect(h["x-webhook-id"]).toBe(h["webhook-id"]!);
      expect(Math.abs(Number(h["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
      expect(h["x-webhook-signature"]).toBe(independentHex(secret, req.bytes));
      expect(h["webhook-signature"]).toBe(independentStandard(secret, h["webhook-id"]!, h["webhook-timestamp"]!, req.bytes));
    }
    // The disabled webhook got no deliveries at all: they are made (or not) in the event's transaction.
    expect(await deliveriesOf(c.id)).toEqual([]);
    expect(disabled.requests).toEqual([]);
    await eventually(async () => (await deliveriesOf(a.id)).every((d) => d.status === "delivered"));
  });

  test("a webhook added after an event does not get it; a rolled-back change makes no delivery", async () => {
    const ws = await workspace();
    await ws.post({ name: "Maize", price: 200 });
    const late = await ws.hook(recorder().url);
    expect((await ws.put("Nope", { price: 1 })).status).toBe(404);
    expect((await ws.put("Maize", { price: -1 })).status).toBe(400);
    expect(await deliveriesOf(late.id)).toEqual([]);
    await ws.put("Maize", { price: 201 });
    expect((await deliveriesOf(late.id)).map((d) => d.event)).toEqual(["price.updated"]);
  });

  test("a 500 then a 200: the retry carries the same id and identical bytes, and each attempt is logged", async () => {
    const ws = await workspace();
    const r = recorder((_, i) => status(i === 0 ? 500 : 200));
    const h = await ws.hook(r.url);
    await ws.post({ name: "Wheat", price: 180 });
    await eventually(async () => (await deliveriesOf(h.id))[0]?.status === "delivered");
    expect(r.requests).toHaveLength(2);
    const [first, second] = r.requests;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]!);
    expect(Buffer.from(second!.bytes).equals(Buffer.from(first!.bytes))).toBe(true);
    expect(second!.headers["x-webhook-signature"]).toBe(first!.headers["x-webhook-signature"]!);
    expect(second!.headers["webhook-signature"]).toBe(independentStandard(h.secret, second!.headers["webhook-id"]!, second!.headers["webhook-timestamp"]!, second!.bytes));

    const [delivery] = await deliveriesOf(h.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 200, lastError: null });
    const logs = attemptLogs(delivery!.id);
    expect(logs.map((l) => [l.attempt, l.status, l.result])).toEqual([
      [1, 500, "retry"],
      [2, 200, "delivered"],
    ]);
    for (const l of logs) {
      expect(l).toMatchObject({ webhookId: h.id, event: "ingredient.added" });
      expect(typeof l.ms).toBe("number");
    }
  });

  test("after the last attempt a delivery is failed and keeps its last status code and error", async () => {
    const ws = await workspace();
    const r = recorder(() => status(500));
    const down = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => ok() });
    const deadUrl = down.url.href;
    await down.stop(true); // nothing listens there any more
    const answering = await ws.hook(r.url);
    const refused = await ws.hook(deadUrl);
    await ws.post({ name: "Barley", price: 170 });
    await eventually(async () => (await Promise.all([answering, refused].map((h) => deliveriesOf(h.id)))).every((d) => d[0]?.status === "failed"));
    expect(r.requests).toHaveLength(1 + FAST.retrySchedule.length);
    expect((await deliveriesOf(answering.id))[0]).toMatchObject({ attempts: 4, lastStatus: 500, lastError: "HTTP 500 Internal Server Error", nextAttemptAt: null });
    const gone = (await deliveriesOf(refused.id))[0]!;
    expect(gone).toMatchObject({ attempts: 4, lastStatus: null });
    expect(gone.lastError).toMatch(/connect/i);
    expect(attemptLogs(gone.id).at(-1)).toMatchObject({ attempt: 4, status: null, result: "failed" });
  });

  test("redirects are not followed: a 3xx is a failed attempt", async () => {
    const ws = await workspace();
    const target = recorder();
    const r = recorder(() => status(307, { Location: target.url }));
    const h = await ws.hook(r.url);
    await ws.post({ name: "Sorghum", price: 160 });
    await eventually(async () => (await deliveriesOf(h.id))[0]?.status === "failed");
    expect(r.requests).toHaveLength(4);
    expect(target.requests).toEqual([]);
    expect((await deliveriesOf(h.id))[0]!.lastStatus).toBe(307);
    expect((await deliveriesOf(h.id))[0]!.lastError).toContain("redirects are not followed");
  });

  test("a hanging receiver holds at most 4 attempts and does not delay another webhook", async () => {
    const ws = await workspace();
    const hold = gate();
    const hanging = recorder(async () => {
      await hold.wait;
      return ok();
    });
    const fast = recorder();
    const names = ["A", "B", "C", "D", "E", "F"];
    for (const name of names) await ws.post({ name, price: 100 });
    const slow = await ws.hook(hanging.url, { events: ["price.updated"] });
    await ws.hook(fast.url, { events: ["price.updated"] });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, hanging.open())), 1);
    try {
      for (const name of names) expect((await ws.put(name, { price: 101 })).status).toBe(200);
      await eventually(() => fast.requests.length === names.length);
      await eventually(() => hanging.open() === 4);
      expect(hanging.requests).toHaveLength(4); // the other two wait for a free slot
      hold.open();
      await eventually(async () => (await deliveriesOf(slow.id)).every((d) => d.status === "delivered"));
      expect(new Set(hanging.requests.map((r) => r.json.ingredient))).toEqual(new Set(names));
      expect(most).toBeLessThanOrEqual(4);
    } finally {
      clearInterval(watch);
      hold.open();
    }
  });

  test("price changes on one ingredient arrive in order, a failed attempt holding back the later event", async () => {
    const ws = await workspace();
    const r = recorder((_, i) => status(i === 0 ? 500 : 204));
    const h = await ws.hook(r.url, { events: ["price.updated"] });
    await ws.post({ name: "Fish meal", price: 1000 });
    await ws.put("Fish meal", { price: 1010 });
    await ws.put("Fish meal", { price: 1020 });
    await eventually(async () => (await deliveriesOf(h.id)).filter((d) => d.status === "delivered").length === 2);
    // The first event's failed attempt, its retry, and only then the second event.
    expect(r.requests.map((q) => q.json.new_price)).toEqual([1010, 1010, 1020]);

    // A burst of quick changes arrives in the order they were made.
    const prices = Array.from({ length: 20 }, (_, i) => 1100 + i);
    for (const price of prices) await ws.put("Fish meal", { price });
    await eventually(() => r.requests.length === 3 + prices.length);
    expect(r.requests.slice(3).map((q) => q.json.new_price)).toEqual(prices);
  });

  test("a 410 disables the webhook; while disabled it gets no new deliveries; enabled, its pending one resumes", async () => {
    const ws = await workspace();
    const r = recorder((_, i) => status(i === 0 ? 410 : 204));
    const h = await ws.hook(r.url);
    await ws.post({ name: "Limestone", price: 40 });
    await eventually(async () => (await db.listWebhooks(ws.id))[0]?.status === "disabled");
    const [hook] = await db.listWebhooks(ws.id);
    expect(hook!.disabledReason).toContain("410");
    expect(hook!.pending).toBe(1);
    expect((await deliveriesOf(h.id))[0]).toMatchObject({ status: "pending", attempts: 1, lastStatus: 410 });
    expect(t.logs().some((l) => l.msg === "webhook disabled" && l.webhookId === h.id)).toBe(true);

    await ws.put("Limestone", { price: 41 });
    expect(await deliveriesOf(h.id)).toHaveLength(1);

    await db.setWebhookEnabled(h.id, true);
    await eventually(async () => (await deliveriesOf(h.id))[0]?.status === "delivered");
    expect(r.requests.map((q) => q.json.ingredient)).toEqual(["Limestone", "Limestone"]);
    expect((await db.listWebhooks(ws.id))[0]).toMatchObject({ status: "enabled", disabledReason: null, pending: 0 });
  });
});

describe("webhook delivery with an injected clock", () => {
  let c: TestServer;
  let cdb: AdminStore;
  const clock = new TestClock();
  beforeAll(async () => {
    c = await startTestServer({ clock });
    cdb = await openTestStore(c.dataPath);
  });
  afterAll(async () => {
    await cdb.close();
    await c.stop();
  });

  test("Retry-After on a 429 or 503 replaces the schedule's interval, capped at 1 h; the attempt counts", async () => {
    const ws = await workspace(c, cdb);
    const answered = new Set<unknown>();
    const r = recorder((q) => {
      if (answered.has(q.json.ingredient)) return ok();
      answered.add(q.json.ingredient);
      return q.json.ingredient === "Salt" ? status(429, { "Retry-After": "120" }) : status(503, { "Retry-After": "86400" });
    });
    const h = await ws.hook(r.url);
    const startedAt = clock.ms;
    await ws.post({ name: "Salt", price: 90 });
    await eventually(async () => (await deliveriesOf(h.id, cdb))[0]?.attempts === 1);
    expect((await deliveriesOf(h.id, cdb))[0]).toMatchObject({ status: "pending", lastStatus: 429, nextAttemptAt: isoTime(startedAt + 120_000) });

    clock.advance(120_000);
    await eventually(async () => (await deliveriesOf(h.id, cdb))[0]?.status === "delivered");
    expect((await deliveriesOf(h.id, cdb))[0]!.attempts).toBe(2);

    await ws.post({ name: "Dicalcium phosphate", price: 600 });
    await eventually(async () => (await deliveriesOf(h.id, cdb))[0]?.attempts === 1);
    expect((await deliveriesOf(h.id, cdb))[0]).toMatchObject({ lastStatus: 503, nextAttemptAt: isoTime(clock.ms + 3_600_000) });
  });

  test("a plain failure waits the schedule's first interval, 5 s ± 20 %", async () => {
    const ws = await workspace(c, cdb);
    const h = await ws.hook(recorder(() => status(502)).url);
    await ws.post({ name: "Canola meal", price: 380 });
    await eventually(async () => (await deliveriesOf(h.id, cdb))[0]?.attempts === 1);
    const wait = Date.parse((await deliveriesOf(h.id, cdb))[0]!.nextAttemptAt!) - clock.ms;
    expect(wait).toBeGreaterThanOrEqual(4000);
    expect(wait).toBeLessThanOrEqual(6000);
  });

  test("delivered deliveries are pruned after 30 days; events stay", async () => {
    const ws = await workspace(c, cdb);
    const h = await ws.hook(recorder().url);
    await ws.post({ name: "Wheat bran", price: 150 });
    await eventually(async () => (await deliveriesOf(h.id, cdb))[0]?.status === "delivered");
    clock.advance(29 * 86_400_000);
    await ws.put("Wheat bran", { price: 151 });
    await eventually(async () => (await deliveriesOf(h.id, cdb)).filter((d) => d.status === "delivered").length === 2);
    clock.advance(2 * 86_400_000);
    // The first is 31 days old, the second 2 days.
    await eventually(async () => (await deliveriesOf(h.id, cdb)).length === 1);
    expect((await deliveriesOf(h.id, cdb))[0]!.event).toBe("price.updated");
    expect(await ws.events()).toHaveLength(2);
  });
});

describe("webhook delivery across a shutdown", () => {
  test("an attempt in flight at stop is abandoned after the grace period and sent again after restart", async () => {
    const tmp = tempDir();
    const hold = gate();
    const r = recorder(async (_, i) => {
      if (i === 0) await hold.wait;
      return ok();
    });
    let text = "";
    const pgUrl = databaseFor(tmp.dataPath);
    const data: DataLocation = pgUrl === undefined ? { kind: "sqlite", path: tmp.dataPath } : { kind: "postgres", url: pgUrl };
    const start = () =>
      startService({
        data,
        host: "127.0.0.1",
        port: 0,
        logger: createLogger((s) => (text += s)),
        webhooks: { stopGraceMs: 100 },
      });
    try {
      let svc = await start();
      const handle = await openTestStore(tmp.dataPath);
      const ws = await handle.createWorkspace("mill", "Mill", isoTime(Date.now()));
      const { key } = await handle.createKey({ workspaceId: ws.id, write: true, rateLimit: 1000, label: null, now: isoTime(Date.now()) });
      const id = await handle.createWebhook({ workspaceId: ws.id, url: r.url, secret: generateSecret(), events: null, now: isoTime(Date.now()) });
      const res = await fetch(`${svc.url.href}v1/ingredients`, { method: "POST", headers: { "X-API-Key": key }, body: JSON.stringify({ name: "Maize" }) });
      expect(res.status).toBe(201);
      await eventually(() => r.open() === 1);
      await svc.stop();
      expect(text).toContain("webhook attempt abandoned at shutdown");
      expect((await deliveriesOf(id, handle))[0]).toMatchObject({ status: "pending", attempts: 0 });

      svc = await start();
      await eventually(async () => (await deliveriesOf(id, handle))[0]?.status === "delivered");
      expect(r.requests).toHaveLength(2);
      expect(r.requests[1]!.headers["webhook-id"]).toBe(r.requests[0]!.headers["webhook-id"]!);
      await handle.close();
      await svc.stop();
    } finally {
      hold.open();
      tmp.cleanup();
    }
  });
});
