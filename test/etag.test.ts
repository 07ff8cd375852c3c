import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cli, startTestServer, TestClock, type TestServer } from "./helpers/harness.ts";

setDefaultTimeout(60_000);

let t: TestServer;
let write: string;
const clock = new TestClock();

beforeAll(async () => {
  t = await startTestServer({ clock });
  write = t.key({ write: true });
  for (const [name, price] of [["Maize", 215], ["Wheat", 190]] as const) {
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name, price, category: "Cereals" } })).status).toBe(201);
  }
});
afterAll(() => t.stop());

const get = (path: string, key: string, etag?: string, method = "GET") => t.request(method, path, { key, headers: etag === undefined ? {} : { "If-None-Match": etag } });
const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));

describe("ETag and If-None-Match", () => {
  test("a cached GET carries a strong ETag of the body without its timestamp", async () => {
    const key = t.key();
    const a = await get("/v1/ingredients", key);
    const tag = a.headers.get("etag")!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const bodyA = (await a.json()) as { timestamp: string };
    clock.advance(1); // another millisecond: another timestamp in the body
    const b = await get("/v1/ingredients", key);
    const bodyB = (await b.json()) as { timestamp: string };
    expect(bodyB.timestamp).not.toBe(bodyA.timestamp);
    expect(b.headers.get("etag")).toBe(tag);
    // Other filters, other bodies, other tags.
    expect((await get("/v1/ingredients?inStock=false", key)).headers.get("etag")).not.toBe(tag);
    // Not on answers that are not kept bodies.
    expect((await get("/v1/health", key)).headers.get("etag")).toBeNull();
  });

  test("If-None-Match with the current tag: 304, no body, and not counted against the key's limit", async () => {
    const key = t.key({ rateLimit: 5 });
    const first = await get("/v1/prices", key);
    expect(first.status).toBe(200);
    expect(remaining(first)).toBe(4);
    const tag = first.headers.get("etag")!;
    for (let i = 0; i < 20; i++) {
      const res = await get("/v1/prices", key, tag);
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(tag);
      expect(res.headers.get("content-type")).toBeNull();
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(remaining(res)).toBe(4);
    }
    // HEAD too; a list of tags, a weak form of the tag and * match as RFC 9110 has it for If-None-Match.
    for (const header of [tag, `"nope", ${tag}`, `W/${tag}`, "*"]) expect((await get("/v1/prices", key, header, "HEAD")).status).toBe(304);
    // A tag that does not match is an ordinary, counted 200.
    const other = await get("/v1/prices", key, '"something-else"');
    expect(other.status).toBe(200);
    expect(remaining(other)).toBe(3);
  });

  test("an ERP polling /v1/prices every 30 s for an hour fits in 100 requests when nothing changed", async () => {
    const key = t.key({ rateLimit: 100 });
    let tag = (await get("/v1/prices", key)).headers.get("etag")!;
    const statuses: number[] = [];
    for (let poll = 1; poll < 120; poll++) {
      const res = await get("/v1/prices", key, tag);
      statuses.push(res.status);
      tag = res.headers.get("etag") ?? tag;
    }
    expect(new Set(statuses)).toEqual(new Set([304]));
    expect(remaining(await get("/v1/prices", key, tag))).toBe(99);
  });

  test("a change gives a new tag (a 200, counted); a commit that leaves the body alone keeps it", async () => {
    const key = t.key();
    const tag = (await get("/v1/ingredients/Maize", key)).headers.get("etag")!;
    // An admin command commits in another process: a new data generation, the same body, the same tag.
    expect((await cli(["key", "create", "--data", t.dataPath])).code).toBe(0);
    expect((await get("/v1/ingredients/Maize", key, tag)).status).toBe(304);
    expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: 221 } })).status).toBe(200);
    const changed = await get("/v1/ingredients/Maize", key, tag);
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { data: { price: number } }).data.price).toBe(221);
    const next = changed.headers.get("etag")!;
    expect(next).not.toBe(tag);
    expect((await get("/v1/ingredients/Maize", key, next)).status).toBe(304);
  });

  test("a key without room in its window is refused, conditional or not; errors count as usual", async () => {
    // A server of its own: on PostgreSQL the earlier tests' commits reach the shared server as
    // notifications, and one arriving between the two GETs below drops the kept body, so the second
    // is built again and counted (as it should be) before it answers 304.
    const own = await startTestServer({ clock });
    try {
      const key = own.key({ rateLimit: 2 });
      const getOwn = (path: string, etag?: string) => own.request("GET", path, { key, headers: etag === undefined ? {} : { "If-None-Match": etag } });
      const tag = (await getOwn("/v1/formulas")).headers.get("etag")!;
      expect((await getOwn("/v1/formulas", tag)).status).toBe(304);
      // An unknown name with If-None-Match is a 404, and counts.
      const missing = await getOwn("/v1/ingredients/Nothing", tag);
      expect(missing.status).toBe(404);
      expect(remaining(missing)).toBe(0);
      const refused = await getOwn("/v1/formulas", tag);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toBe("Rate limit exceeded");
    } finally {
      await own.stop();
    }
  });

  test("every kept body's route answers with an ETag and 304s (the route table says which)", async () => {
    const key = t.key();
    for (const path of ["/v1/ingredients", "/v1/ingredients/Wheat", "/v1/prices", "/v1/prices/Wheat", "/v1/formulas", "/v1/reports/cost-changes", "/v1/events"]) {
      const tag = (await get(path, key)).headers.get("etag");
      expect({ path, tag: typeof tag }).toEqual({ path, tag: "string" });
      expect({ path, status: (await get(path, key, tag!)).status }).toEqual({ path, status: 304 });
    }
  });
});
