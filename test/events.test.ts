import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cli, eventually, startTestServer, type TestServer } from "./helpers/harness.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

let t: TestServer;
let receiver: Recorder;
let read: string;
let write: string;

interface EventItem {
  id: number;
  type: string;
  createdAt: string;
  payload: Record<string, unknown>;
}
interface EventPage {
  status: string;
  data: EventItem[];
  count: number;
  next: number;
  hasMore: boolean;
  timestamp: string;
}

const page = async (query: string, key = read): Promise<{ status: number; body: EventPage }> => {
  const res = await t.request("GET", `/v1/events${query}`, { key });
  return { status: res.status, body: (await res.json()) as EventPage };
};

beforeAll(async () => {
  t = await startTestServer();
  receiver = startRecorder();
  expect((await cli(["webhook", "add", receiver.url, "--events", "price.updated,ingredient.added", "--data", t.dataPath])).code).toBe(0);
  read = t.key();
  write = t.key({ write: true });
  const post = (name: string, price: number) => t.request("POST", "/v1/ingredients", { key: write, body: { name, price, category: "Cereals" } });
  const put = (name: string, price: number) => t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key: write, body: { price } });
  expect((await post("Maize", 215)).status).toBe(201);
  expect((await post("Soybean meal 48%", 455)).status).toBe(201);
  expect((await put("Maize", 219)).status).toBe(200);
  expect((await put("Maize", 219)).status).toBe(200); // the same price: no event
  expect((await put("Soybean meal 48%", 462.5)).status).toBe(200);
  await eventually(() => receiver.requests.length === 4);
});
afterAll(async () => {
  await receiver.stop();
  await t.stop();
});

describe("GET /v1/events", () => {
  test("every event of the workspace, oldest first, with the exact webhook body as payload", async () => {
    const { status, body } = await page("");
    expect(status).toBe(200);
    expect(body.data.map((e) => [e.type, e.payload.ingredient])).toEqual([
      ["ingredient.added", "Maize"],
      ["ingredient.added", "Soybean meal 48%"],
      ["price.updated", "Maize"],
      ["price.updated", "Soybean meal 48%"],
    ]);
    expect(body).toMatchObject({ status: "ok", count: 4, next: body.data[3]!.id, hasMore: false });
    const ids = body.data.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Each delivery names its event; the listed payload is the delivered body, byte for byte.
    for (const delivered of receiver.requests) {
      const item = body.data.find((e) => String(e.id) === delivered.headers["x-webhook-event-id"]);
      expect(String(item?.id)).toBe(delivered.headers["x-webhook-event-id"]!);
      expect(item!.type).toBe(delivered.headers["x-webhook-event"]!);
      expect(JSON.stringify(item!.payload)).toBe(delivered.text);
      expect(item!.createdAt).toBe(item!.payload.timestamp as string);
    }
  });

  test("cursor pagination: follow next until hasMore is false", async () => {
    const all = (await page("")).body.data;
    const seen: EventItem[] = [];
    let after = 0;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(10);
      const { body } = await page(`?after=${after}&limit=3`);
      seen.push(...body.data);
      expect(body.count).toBe(body.data.length);
      after = body.next;
      if (!body.hasMore) break;
    }
    expect(seen).toEqual(all);
    // At the end: an empty page that keeps the cursor where it is.
    const end = await page(`?after=${after}`);
    expect(end.body).toMatchObject({ data: [], count: 0, next: after, hasMore: false });
    // From the middle: only the later ones.
    expect((await page(`?after=${all[1]!.id}`)).body.data).toEqual(all.slice(2));
  });

  test("a new event shows up after the cursor at once", async () => {
    const { body: before } = await page("");
    const put = await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: 230 } });
    expect(put.status).toBe(200);
    const { body } = await page(`?after=${before.next}`);
    expect(body.data.map((e) => [e.type, e.payload.old_price, e.payload.new_price])).toEqual([["price.updated", 219, 230]]);
  });

  test("another workspace sees none of these events", async () => {
    expect((await cli(["workspace", "create", "north", "--name", "North", "--data", t.dataPath])).code).toBe(0);
    const other = t.key({ workspace: "north" });
    expect((await page("", other)).body).toMatchObject({ data: [], count: 0, next: 0, hasMore: false });
  });

  test("ids count per workspace: another workspace's first event is 1, listed and in X-Webhook-Event-Id, and neither's numbers show the other's", async () => {
    expect((await cli(["workspace", "create", "south", "--name", "South", "--data", t.dataPath])).code).toBe(0);
    const southReceiver = startRecorder();
    try {
      expect((await cli(["webhook", "add", southReceiver.url, "--workspace", "south", "--data", t.dataPath])).code).toBe(0);
      const south = t.key({ workspace: "south", write: true });
      expect((await t.request("POST", "/v1/ingredients", { key: south, body: { name: "Barley", price: 190, category: "Cereals" } })).status).toBe(201);
      expect((await t.request("PUT", "/v1/prices/Barley", { key: south, body: { price: 195 } })).status).toBe(200);
      expect((await page("", south)).body.data.map((e) => [e.id, e.type])).toEqual([
        [1, "ingredient.added"],
        [2, "price.updated"],
      ]);
      await eventually(() => southReceiver.requests.length === 2);
      expect(southReceiver.requests.map((r) => r.headers["x-webhook-event-id"]).sort()).toEqual(["1", "2"]);
      // The default workspace goes on from its own last event, whatever the other wrote meanwhile.
      const last = (await page("")).body.next;
      expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: 231 } })).status).toBe(200);
      expect((await page(`?after=${last}`)).body.data.map((e) => e.id)).toEqual([last + 1]);
    } finally {
      await southReceiver.stop();
    }
  });

  test.each([
    ["?after=-1", "after must be a whole number"],
    ["?after=abc", "after must be a whole number"],
    ["?limit=0", "limit must be a whole number from 1 to 1000"],
    ["?limit=1001", "limit must be a whole number from 1 to 1000"],
    ["?limit=2.5", "limit must be a whole number from 1 to 1000"],
  ])("%s is a 400 naming the parameter", async (query, message) => {
    const res = await t.request("GET", `/v1/events${query}`, { key: read });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toStartWith(message);
  });

  test("it is in the OpenAPI document", async () => {
    const doc = (await (await t.request("GET", "/v1/openapi.json", { key: read })).json()) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    expect(doc.paths["/v1/events"]!.get.parameters.map((p) => p.name)).toEqual(["after", "limit", "If-None-Match"]);
  });
});
