/**
 * Lab analyses over real HTTP (issue 33): POST /v1/ingredients/:name/analyses records one (write keys,
 * 201, `ana_` + 16 base62, no Location) and fires the opt-in `analysis.added` {id, name, nutrients,
 * sampledAt, timestamp} to a real receiver that named it, never to one added without --events; GET lists
 * them newest sampled first (ties: newest recorded first) with n, mean, sd (n − 1), min, max and book to
 * 4 decimals, in a `from`/`to` window; bad bodies are refused with the field named. The server's clock
 * is a TestClock, so "in the future" is exact. Before this issue every one of these was a 404.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, startTestServer, tempDir, TestClock, type TestServer } from "./helpers/harness.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

const tmp = tempDir();
const clock = new TestClock();
const now = () => new Date(clock.ms).toISOString();
const ago = (days: number) => new Date(clock.ms - days * 86_400_000).toISOString();
let t: TestServer;
let read: string;
let write: string;
let optedIn: Recorder;
let byDefault: Recorder;

const SOY = "Soybean meal 48%";
const path = (name: string, query = "") => `/v1/ingredients/${encodeURIComponent(name)}/analyses${query}`;
const post = (name: string, body: unknown, key = write) => t.request("POST", path(name), { key, body, socket: true });
const list = async (name: string, query = "") => {
  const res = await t.request("GET", path(name, query), { key: read, socket: true });
  expect(res.status).toBe(200);
  return (await res.json()).data as { name: string; analyses: { id: string; nutrients: Record<string, number>; sampledAt: string }[]; stats: Record<string, unknown> };
};
const refusal = async (body: unknown, name = SOY) => {
  const res = await post(name, body);
  return { status: res.status, message: (await res.json()).message as string };
};

beforeAll(async () => {
  t = await startTestServer({ clock, webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
  read = t.key();
  write = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  writeFileSync(csv, `name,category,price,inStock,CP,Lys\nMaize,Cereals,215,yes,8,0.25\n"${SOY}",Protein meals,420,yes,47.5,2.9\nMaize/Sorghum,Cereals,200,yes,9,\n`);
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
  optedIn = startRecorder();
  byDefault = startRecorder();
  expect((await cli(["webhook", "add", optedIn.url, "--events", "analysis.added", "--data", t.dataPath])).code).toBe(0);
  expect((await cli(["webhook", "add", byDefault.url, "--data", t.dataPath])).code).toBe(0);
});
afterAll(async () => {
  await Promise.all([optedIn.stop(), byDefault.stop()]);
  await t.stop();
  tmp.cleanup();
});

describe("POST /v1/ingredients/:name/analyses", () => {
  test("201 with the analysis, no Location; sampledAt defaults to now; analysis.added reaches the webhook that named it only", async () => {
    const res = await post(SOY, { nutrients: { CP: 46.2, Lys: 2.85 }, sampledAt: ago(20), lot: " L-2611-07 ", lab: "NIR intake" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBeNull();
    const body = await res.json();
    expect(body).toEqual({ status: "ok", data: { id: body.data.id, name: SOY, nutrients: { CP: 46.2, Lys: 2.85 }, sampledAt: ago(20), lot: "L-2611-07", lab: "NIR intake", createdAt: now() } });
    expect(body.data.id).toMatch(/^ana_[0-9A-Za-z]{16}$/);
    const bare = await (await post("Maize/Sorghum", { nutrients: { CP: 9.4 } })).json();
    expect(bare.data).toMatchObject({ name: "Maize/Sorghum", sampledAt: now(), lot: null, lab: null });

    await eventually(() => optedIn.requests.length === 2);
    expect(optedIn.requests.map((r) => r.headers["x-webhook-event"])).toEqual(["analysis.added", "analysis.added"]);
    expect(optedIn.requests[0]!.text).toBe(JSON.stringify({ id: body.data.id, name: SOY, nutrients: { CP: 46.2, Lys: 2.85 }, sampledAt: ago(20), timestamp: now() }));
    expect(optedIn.requests[1]!.json).toEqual({ id: bare.data.id, name: "Maize/Sorghum", nutrients: { CP: 9.4 }, sampledAt: now(), timestamp: now() });
    // The events are in the data before any delivery: the default webhook got none of them.
    const events = (await (await t.request("GET", "/v1/events", { key: read })).json()).data as { type: string }[];
    expect(events.filter((e) => e.type === "analysis.added").length).toBe(2);
    expect(byDefault.requests).toEqual([]);
  });

  test("refusals name the field: nutrients 1 to 500 numbers, sampledAt a past ISO 8601 instant, lot and lab up to 100 characters", async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, 1]));
    const cases: [unknown, string][] = [
      [{}, "nutrients is required"],
      [{ nutrients: {} }, "nutrients must have 1 to 500 keys"],
      [{ nutrients: tooMany }, "nutrients must have at most 500 keys"],
      [{ nutrients: { CP: "46" } }, "nutrients.CP must be a number"],
      [{ nutrients: { CP: 2e9 } }, "nutrients.CP must be a number <= 1000000000"],
      [{ nutrients: { CP: 46 }, sampledAt: new Date(clock.ms + 1).toISOString() }, "sampledAt must not be in the future"],
      [{ nutrients: { CP: 46 }, sampledAt: "yesterday" }, "sampledAt must be an ISO 8601 date-time with a time zone or a date, such as 2026-01-08T07:45:00.000Z or 2026-01-08"],
      [{ nutrients: { CP: 46 }, lot: "x".repeat(101) }, "lot must be 1 to 100 characters"],
      [{ nutrients: { CP: 46 }, lab: "" }, "lab must be 1 to 100 characters"],
      [{ nutrients: { CP: 46 }, batch: "L-1" }, "Unknown field: batch"],
    ];
    for (const [body, message] of cases) expect({ body, ...(await refusal(body)) }).toEqual({ body, status: 400, message });
    expect(await refusal({ nutrients: { CP: 46 } }, "Wheat")).toEqual({ status: 404, message: "Ingredient not found: Wheat" });
    expect((await post(SOY, { nutrients: { CP: 46 } }, read)).status).toBe(403);
    // Exactly now is not the future; 500 keys are allowed.
    expect((await post("Maize", { nutrients: { CP: 8.1 }, sampledAt: now() })).status).toBe(201);
    expect((await post("Maize", { nutrients: Object.fromEntries(Object.entries(tooMany).slice(0, 500)), sampledAt: ago(400) })).status).toBe(201);
  });
});

describe("GET /v1/ingredients/:name/analyses", () => {
  test("newest sampled first, equal ones newest recorded first; stats to 4 decimals with the book value; from inclusive, to exclusive", async () => {
    const cps = [47.9, 45.1, 48.3];
    const ids: string[] = [];
    for (const [i, cp] of cps.entries()) ids.push((await (await post(SOY, { nutrients: { CP: cp }, sampledAt: ago(i === 2 ? 10 : 5), lab: "Eurofins" })).json()).data.id);
    const all = await list(SOY);
    expect(all.name).toBe(SOY);
    // ids[1] and ids[0] share a sampledAt: the later recorded first.
    expect(all.analyses.map((a) => a.id).slice(0, 3)).toEqual([ids[1]!, ids[0]!, ids[2]!]);
    const values = [46.2, ...cps];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
    expect(all.stats).toEqual({
      CP: { n: 4, mean: Math.round(mean * 1e4) / 1e4, sd: Math.round(sd * 1e4) / 1e4, min: 45.1, max: 48.3, book: 47.5 },
      Lys: { n: 1, mean: 2.85, sd: null, min: 2.85, max: 2.85, book: 2.9 },
    });
    // The window: from inclusive, to exclusive; a date means its 00:00 UTC.
    const window = await list(SOY, `?from=${encodeURIComponent(ago(10))}&to=${encodeURIComponent(ago(5))}`);
    expect(window.analyses.map((a) => a.id)).toEqual([ids[2]!]);
    expect(window.stats).toEqual({ CP: { n: 1, mean: 48.3, sd: null, min: 48.3, max: 48.3, book: 47.5 } });
    expect((await list(SOY, "?from=2099-01-01")).analyses).toEqual([]);
    const bad = await t.request("GET", path(SOY, "?from=soon"), { key: read });
    expect({ status: bad.status, message: (await bad.json()).message }).toEqual({ status: 400, message: "from must be an ISO 8601 date-time or a date (YYYY-MM-DD)" });
    const unknown = await t.request("GET", path("Wheat"), { key: read });
    expect({ status: unknown.status, message: (await unknown.json()).message }).toEqual({ status: 404, message: "Ingredient not found: Wheat" });
  });

  test("a new analysis shows at once in a listing already cached", async () => {
    const before = (await list("Maize/Sorghum")).analyses.length;
    expect((await list("Maize/Sorghum")).analyses.length).toBe(before);
    expect((await post("Maize/Sorghum", { nutrients: { CP: 8.8 }, sampledAt: ago(1) })).status).toBe(201);
    expect((await list("Maize/Sorghum")).analyses.length).toBe(before + 1);
  });

  test("the OpenAPI document has both routes and the analysis.added webhook", async () => {
    const doc = await (await t.request("GET", "/v1/openapi.json", { key: read })).json();
    expect(Object.keys(doc.paths["/v1/ingredients/{name}/analyses"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.webhooks["analysis.added"])).toEqual(["post"]);
  });
});
