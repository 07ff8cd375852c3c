import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { routes } from "../src/http/routes/index.ts";
import { accessOf } from "../src/http/route.ts";
import { documentedErrors } from "../src/http/openapi.ts";
import { checkContract } from "./helpers/contract.ts";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe("OpenAPI document", () => {
  test("GET /v1/openapi.json needs a key and equals `feedbase openapi`", async () => {
    expect((await t.request("GET", "/v1/openapi.json")).status).toBe(401);
    const res = await t.request("GET", "/v1/openapi.json", { key: t.key() });
    expect(res.status).toBe(200);
    const served = await res.json();
    const printed = await cli(["openapi"]);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(served);
  });

  test("passes the OpenAPI 3.1 schema validator", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result).toEqual({ valid: true });
  });

  test("every route of the table is documented, and nothing else; the open probes need no key", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    const served = routes.map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([a-zA-Z]+)/g, "{$1}")}`).sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(documented).toEqual(served);
    for (const probe of ["/healthz", "/readyz"]) {
      expect(doc.paths[probe].get.security).toEqual([]);
      expect(Object.keys(doc.paths[probe].get.responses["200"].content)).toEqual(["text/plain"]);
    }
    expect(Object.keys(doc.paths["/readyz"].get.responses)).toEqual(["200", "405", "500", "503"]);
    // Every write can meet a full disk.
    for (const route of routes.filter((r) => accessOf(r) === "write")) {
      expect(doc.paths[route.path.replace(/:([a-zA-Z]+)/g, "{$1}")][route.method.toLowerCase()].responses["503"].headers["Retry-After"].schema).toEqual({ type: "integer" });
    }
  });

  test("the document lists every route's errors, and those cover what the router itself answers", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      const listed = Object.keys(doc.paths[route.path.replace(/:([a-zA-Z]+)/g, "{$1}")][route.method.toLowerCase()].responses).map(Number);
      expect({ where, listed }).toEqual({ where, listed: [route.response.status, ...(route.response.created ? [201] : []), ...(route.etag ? [304] : []), ...documentedErrors(route)].sort((a, b) => a - b) });
      // What the router answers before the handler runs: a bad escape in a parameter, a bad body, a read key on a write.
      const implied = [
        ...(route.path.includes(":") ? [400] : []),
        ...(route.body ? [400, 413] : []),
        ...(accessOf(route) === "write" ? [403] : []),
      ];
      for (const status of implied) expect({ where, status, listed: listed.includes(status) }).toEqual({ where, status, listed: true });
    }
    expect(doc.paths["/v1/formulas/{id}"].get.responses["400"].content["application/json"]).toMatchObject({ schema: expect.any(Object) });
  });

  test("the contract check that runs on every answer of the suite refuses a wrong body or an undocumented status", () => {
    expect(() => checkContract("GET", "/v1/health", 200, JSON.stringify({ status: "ok", version: "1.0.0", timestamp: "t" }))).not.toThrow();
    expect(() => checkContract("GET", "/v1/health", 200, JSON.stringify({ status: "ok", timestamp: "t" }))).toThrow(/version/);
    expect(() => checkContract("GET", "/v1/prices", 201, JSON.stringify({ status: "ok", data: [], count: 0 }))).toThrow(/says 200/);
    expect(() => checkContract("GET", "/v1/formulas", 404, "{}")).toThrow(/documented errors/);
    expect(() => checkContract("PUT", "/v1/prices/Maize", 404, "{}")).not.toThrow();
    expect(() => checkContract("HEAD", "/v1/prices", 200, "", '"tag"')).not.toThrow();
    // ETag and 304 only where the route declares etag, and always there.
    expect(() => checkContract("GET", "/v1/prices", 200, JSON.stringify({ status: "ok", data: [], count: 0 }))).toThrow(/no ETag/);
    expect(() => checkContract("GET", "/v1/health", 200, JSON.stringify({ status: "ok", version: "1.0.0", timestamp: "t" }), '"tag"')).toThrow(/does not declare etag/);
    expect(() => checkContract("GET", "/v1/prices", 304, "", '"tag"')).not.toThrow();
    expect(() => checkContract("GET", "/v1/health", 304, "")).toThrow(/only a route with etag/);
  });

  test("every $ref points at something in the document", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const target = ref.split("/").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
      expect(typeof target, ref).toBe("object");
    }
  });

  test("security scheme, rate-limit headers, error object and the webhook events and ping are described", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]));
    expect(doc.components.schemas.Error.required).toEqual(["status", "message"]);
    expect(Object.keys(doc.webhooks)).toEqual(["price.updated", "ingredient.added", "formula.cost_changed", "formula.updated", "plan.updated", "analysis.added", "ping"]);
    expect(doc.components.schemas.PlanUpdatedEvent.required).toEqual(["id", "name", "timestamp"]);
    expect(doc.components.schemas.AnalysisAddedEvent.required).toEqual(["id", "name", "nutrients", "sampledAt", "timestamp"]);
    expect(doc.components.schemas.PingEvent.required).toEqual(["webhook", "timestamp"]);
    expect(doc.webhooks.ping.post.parameters.find((p: { name: string }) => p.name === "X-Webhook-Event").schema.const).toBe("ping");
    expect(doc.webhooks["price.updated"].post.parameters.map((p: { name: string }) => p.name)).toContain("X-Webhook-Event-Id");
    expect(doc.components.schemas.FormulaCostChangedEvent.required).toEqual(["ingredient", "old_price", "new_price", "formulas", "timestamp"]);
    expect(doc.components.schemas.PriceUpdatedEvent.required).toEqual(["ingredient", "old_price", "new_price", "timestamp"]);
    expect(doc.components.schemas.IngredientAddedEvent.required).toEqual(["ingredient", "category", "price", "timestamp"]);
  });
});
