import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cli, eventually, startTestServer, TestClock, type TestServer } from "./helpers/harness.ts";

const clock = new TestClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.stop());

const get = (key: string, path = "/v1/health") => t.request("GET", path, { key });
const fields = (res: Response) => ({
  policy: res.headers.get("ratelimit-policy"),
  rateLimit: res.headers.get("ratelimit"),
  limit: res.headers.get("x-ratelimit-limit"),
  remaining: res.headers.get("x-ratelimit-remaining"),
  reset: res.headers.get("x-ratelimit-reset"),
});

describe("rate limiting over HTTP", () => {
  test("limit 5: exactly five successes, then 401 with Retry-After; headers count down", async () => {
    const key = t.key({ rateLimit: 5 });
    const start = clock.now();
    for (let i = 0; i < 5; i++) {
      const res = await get(key);
      expect(res.status).toBe(200);
      expect(fields(res)).toEqual({
        policy: '"default";q=5;w=3600',
        rateLimit: `"default";r=${4 - i};t=${3600 - i}`,
        limit: "5",
        remaining: String(4 - i),
        reset: String(Math.ceil(start / 1000) + 3600),
      });
      clock.advance(1000);
    }
    const refused = await get(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: "error", message: "Rate limit exceeded" });
    // The oldest counted request leaves the window 3600 s after it came; 5 s have passed since.
    expect(refused.headers.get("retry-after")).toBe("3595");
    expect(fields(refused)).toMatchObject({ rateLimit: '"default";r=0;t=3595', remaining: "0" });
    // One line for the refusal, not a warn beside a request line: the request's own, at warn.
    const lines = t.logs().filter((l) => l.requestId === refused.headers.get("x-request-id"));
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "rate limit exceeded", status: 401, limit: 5, keyId: expect.stringMatching(/^key_/) })]);
  });

  test("refused requests do not count, and the window slides", async () => {
    const key = t.key({ rateLimit: 2 });
    expect((await get(key)).status).toBe(200);
    clock.advance(1800_000);
    expect((await get(key)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await get(key)).status).toBe(401);
    clock.advance(1800_000 - 1);
    expect((await get(key)).status).toBe(401);
    clock.advance(1);
    // The first request has left the window; the refusals never counted.
    const res = await get(key);
    expect(res.status).toBe(200);
    expect(fields(res).rateLimit).toBe('"default";r=0;t=1800');
    expect((await get(key)).status).toBe(401);
  });

  test("every authenticated answer carries the fields, errors included; unauthenticated ones do not count", async () => {
    const key = t.key({ rateLimit: 10 });
    for (let i = 0; i < 20; i++) expect((await t.request("GET", "/v1/health", { key: "fbk_wrong" })).status).toBe(401);
    const notFound = await get(key, "/v1/nope");
    expect(notFound.status).toBe(404);
    expect(fields(notFound).remaining).toBe("9");
    const denied = await t.request("POST", "/v1/ingredients", { key, body: { name: "x" } });
    expect(denied.status).toBe(403);
    expect(fields(denied).remaining).toBe("8");
    const missing = await t.request("GET", "/v1/health");
    expect(missing.headers.get("ratelimit")).toBeNull();
  });

  test("keys with different limits reading the same kept body alternately: each answer has its own key's fields and request id", async () => {
    const writer = t.key({ write: true });
    expect((await t.request("POST", "/v1/ingredients", { key: writer, body: { name: "Shared body", price: 100 } })).status).toBe(201);
    const small = t.key({ rateLimit: 50 });
    const large = t.key({ rateLimit: 70 });
    const tags = new Set<string | null>();
    for (let i = 0; i < 6; i++) {
      for (const [key, limit] of [[small, 50], [large, 70]] as const) {
        const res = await t.request("GET", "/v1/ingredients/Shared%20body", { key, headers: { "X-Request-Id": `alt-${i}-${limit}` }, socket: true });
        expect(res.status).toBe(200);
        tags.add(res.headers.get("etag"));
        expect({ id: res.headers.get("x-request-id"), type: res.headers.get("content-type"), policy: fields(res).policy, limit: fields(res).limit, remaining: fields(res).remaining }).toEqual({
          id: `alt-${i}-${limit}`,
          type: "application/json",
          policy: `"default";q=${limit};w=3600`,
          limit: String(limit),
          remaining: String(limit - 1 - i),
        });
      }
    }
    expect(tags.size).toBe(1);
  });

  test("a limit raised with the CLI applies to the running server without restart", async () => {
    const created = await cli(["key", "create", "--rate-limit", "1", "--json", "--data", t.dataPath]);
    const { key, id } = JSON.parse(created.stdout);
    expect((await get(key)).status).toBe(200);
    expect((await get(key)).status).toBe(401);
    expect((await cli(["key", "set-rate-limit", id, "3", "--data", t.dataPath])).code).toBe(0);
    // Within 1 s (docs/decisions.md#serving-from-postgresql): at once on SQLite, at the notification on PostgreSQL.
    // Refused requests do not count, so asking again until it is let through leaves the window as it was.
    let res: Response | undefined;
    await eventually(async () => (res = await get(key)).status === 200, 1000);
    expect(fields(res!)).toMatchObject({ policy: '"default";q=3;w=3600', remaining: "1" });
  });

  test("the default limit is 100 requests per hour", async () => {
    const { key } = JSON.parse((await cli(["key", "create", "--json", "--data", t.dataPath])).stdout);
    expect(fields(await get(key)).policy).toBe('"default";q=100;w=3600');
  });
});
