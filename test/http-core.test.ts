import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./helpers/harness.ts";

let t: TestServer;
let readKey: string;

beforeAll(async () => {
  t = await startTestServer();
  readKey = t.key();
});
afterAll(() => t.stop());

async function expectError(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json");
  expect(await res.json()).toEqual({ status: "error", message });
}

describe("authentication (401 messages)", () => {
  test("missing header", async () => expectError(await t.request("GET", "/v1/health"), 401, "Missing API key"));
  test("empty header is missing", async () => expectError(await t.request("GET", "/v1/health", { key: "" }), 401, "Missing API key"));
  test("unknown key", async () =>
    expectError(await t.request("GET", "/v1/health", { key: "fbk_" + "x".repeat(40) }), 401, "Invalid or inactive API key"));
  test("an unknown /v1 path without a key is 401, not 404", async () =>
    expectError(await t.request("GET", "/v1/nothing-here"), 401, "Missing API key"));
});

describe("routing", () => {
  test("unknown path under /v1 with a key is 404", async () =>
    expectError(await t.request("GET", "/v1/nothing-here", { key: readKey }), 404, "Not found"));
  test("unknown path outside /v1 is 404 without a key", async () => expectError(await t.request("GET", "/robots.txt"), 404, "Not found"));
  test.each(["OPTIONS", "DELETE", "PATCH", "POST", "PUT"])("%s on /v1/health is 405 with Allow", async (method) => {
    const res = await t.request(method, "/v1/health", { key: readKey });
    await expectError(res, 405, "Method not allowed");
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
  test("HEAD works where GET does, with no body", async () => {
    const res = await t.request("HEAD", "/v1/health", { key: readKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe("");
  });
});

describe("health", () => {
  test("GET /v1/health has the spec's shape", async () => {
    const res = await t.request("GET", "/v1/health", { key: readKey });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["status", "version", "timestamp"]);
    expect(body.status).toBe("ok");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
  test("/healthz needs no key and is not logged", async () => {
    const res = await t.request("GET", "/healthz");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    expect(t.logs().some((l) => l.path === "/healthz")).toBe(false);
  });
});

describe("request ids and logs", () => {
  test("a caller's X-Request-Id is echoed", async () => {
    const res = await t.request("GET", "/v1/health", { key: readKey, headers: { "X-Request-Id": "erp-sync-42" } });
    expect(res.headers.get("x-request-id")).toBe("erp-sync-42");
  });
  test("an over-long or unprintable id is replaced by a generated one", async () => {
    const long = "a".repeat(65);
    const a = await t.request("GET", "/v1/health", { key: readKey, headers: { "X-Request-Id": long } });
    const b = await t.request("GET", "/v1/health", { key: readKey });
    expect(a.headers.get("x-request-id")).not.toBe(long);
    expect(a.headers.get("x-request-id")).toBeTruthy();
    expect(b.headers.get("x-request-id")).not.toBe(a.headers.get("x-request-id"));
  });
  test("errors carry a request id too", async () => {
    const res = await t.request("GET", "/v1/health");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
  test("one JSON line per request with the contract's fields and never the key", async () => {
    await t.request("GET", "/v1/health", { key: readKey, headers: { "X-Request-Id": "log-check-1" } });
    const line = t.logs().find((l) => l.requestId === "log-check-1");
    expect(line).toMatchObject({ level: "info", method: "GET", path: "/v1/health", status: 200 });
    expect(Object.keys(line!)).toEqual(expect.arrayContaining(["time", "level", "msg", "requestId", "method", "path", "status", "ms", "keyId"]));
    expect(String(line!.keyId)).toMatch(/^key_/);
    expect(t.logText()).not.toContain(readKey);
  });
  test("a request id with a quote or a backslash is logged as the same string", async () => {
    const id = 'erp "sync" \\ 7';
    const res = await t.request("GET", "/v1/health", { key: readKey, headers: { "X-Request-Id": id } });
    expect(res.headers.get("x-request-id")).toBe(id);
    expect(t.logs().filter((l) => l.requestId === id)).toHaveLength(1);
  });
});
