/**
 * The two reads the web console added to /v1, on either backend: GET /v1/key (the calling key's own
 * rights, never another key's) and GET /v1/reports/price-history (every ingredient's history over a
 * window in one answer, with the level the window opens at).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isoTime } from "../src/domain/time.ts";
import { startTestServer, TestClock, type TestServer } from "./helpers/harness.ts";

const DAY = 86_400_000;
// Whole days, so the default window (00:00 UTC 180 days back) is known exactly.
const clock = new TestClock(Math.floor((Date.now() - 400 * DAY) / DAY) * DAY + 9 * 3600_000);
const T0 = clock.ms;

let t: TestServer;
let readKey: string;
let writeKey: string;
const get = async (path: string, key = readKey) => {
  const res = await t.request("GET", path, { key });
  return { status: res.status, body: await res.json(), headers: res.headers };
};

beforeAll(async () => {
  t = await startTestServer({ clock });
  readKey = t.key({ rateLimit: 500 });
  writeKey = t.key({ write: true });
  for (const [name, price] of [["Maize", 200], ["Barley", 180], ["Oats", 150]] as const) {
    expect((await t.request("POST", "/v1/ingredients", { key: writeKey, body: { name, price, category: "Cereals" } })).status).toBe(201);
  }
  // Maize: before any window, inside the last 180 days, and out of stock at the end.
  for (const [days, body] of [[10, { price: 205 }], [300, { price: 210 }], [350, { price: 215, inStock: false }]] as const) {
    clock.ms = T0 + days * DAY;
    expect((await t.request("PUT", "/v1/prices/Maize", { key: writeKey, body })).status).toBe(200);
  }
  clock.ms = T0 + 360 * DAY;
});
afterAll(() => t.stop());

describe("GET /v1/key", () => {
  test("the calling key's id, workspace, write permission, rate limit and label; never the key", async () => {
    const read = await get("/v1/key");
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ id: expect.stringMatching(/^key_/), workspace: "default", write: false, rateLimit: 500, label: null });
    expect(JSON.stringify(read.body)).not.toContain(readKey);
    const write = await get("/v1/key", writeKey);
    expect(write.body.data.write).toBe(true);
    expect(write.body.data.id).not.toBe(read.body.data.id);
    // Asked again with the first key: its own answer, not the other key's from a cache.
    expect((await get("/v1/key")).body.data).toEqual(read.body.data);
  });

  test("authenticated and counted like any /v1 request: a bad key is the API's 401", async () => {
    const res = await get("/v1/key", "fbk_not-a-key");
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Invalid or inactive API key");
    expect((await get("/v1/key")).headers.get("x-ratelimit-limit")).toBe("500");
  });
});

describe("GET /v1/reports/price-history", () => {
  test("every ingredient in the price list's order, entries oldest first, opening with the last entry before from", async () => {
    const from = isoTime(T0 + 200 * DAY);
    const { status, body } = await get(`/v1/reports/price-history?from=${from}`);
    expect(status).toBe(200);
    const prices = (await get("/v1/prices")).body.data.map((p: { name: string }) => p.name);
    expect(body.data.map((h: { name: string }) => h.name)).toEqual(prices);
    expect(body.count).toBe(3);
    expect(body.from).toBe(from);
    expect(body.to).toBeNull();
    const maize = body.data.find((h: { name: string }) => h.name === "Maize");
    expect(maize.history).toEqual([
      { price: 205, inStock: true, at: isoTime(T0 + 10 * DAY), source: "api" },
      { price: 210, inStock: true, at: isoTime(T0 + 300 * DAY), source: "api" },
      { price: 215, inStock: false, at: isoTime(T0 + 350 * DAY), source: "api" },
    ]);
    // An ingredient with no change since it was added opens with its first entry.
    expect(body.data.find((h: { name: string }) => h.name === "Oats").history).toEqual([{ price: 150, inStock: true, at: isoTime(T0), source: "api" }]);
  });

  test("to is exclusive; without from the window is 180 days back from 00:00 UTC today", async () => {
    const to = isoTime(T0 + 350 * DAY);
    const windowed = await get(`/v1/reports/price-history?from=${isoTime(T0 + 200 * DAY)}&to=${to}`);
    expect(windowed.body.to).toBe(to);
    expect(windowed.body.data.find((h: { name: string }) => h.name === "Maize").history.map((e: { price: number }) => e.price)).toEqual([205, 210]);
    const open = await get("/v1/reports/price-history");
    expect(open.body.from).toBe(isoTime(T0 + 180 * DAY - 9 * 3600_000));
  });

  test("a bad instant is the API's 400; an unchanged answer is a free 304", async () => {
    const bad = await get("/v1/reports/price-history?from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("from");
    const first = await get("/v1/reports/price-history?from=2020-01-01T00:00:00Z");
    const again = await t.request("GET", "/v1/reports/price-history?from=2020-01-01T00:00:00Z", { key: readKey, headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});
