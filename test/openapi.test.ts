import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { routes } from "../src/http/routes/index.ts";
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

  test("every route and method the router serves is documented, and nothing else", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    const probes = ["get /healthz", "get /readyz"];
    const served = [...probes, ...routes.flatMap((r) => Object.keys(r.methods).map((m) => `${m.toLowerCase()} ${r.path.replace(/:([a-zA-Z]+)/g, "{$1}")}`))].sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  test("every $ref points at something in the document", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const target = ref.split("/").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });

  test("security scheme, rate-limit headers, error object and both webhook events are described", async () => {
    const doc = JSON.parse((await cli(["openapi"])).stdout);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]));
    expect(doc.components.schemas.Error.required).toEqual(["status", "message"]);
    expect(Object.keys(doc.webhooks)).toEqual(["price.updated", "ingredient.added"]);
    expect(doc.components.schemas.PriceUpdatedEvent.required).toEqual(["ingredient", "old_price", "new_price", "timestamp"]);
    expect(doc.components.schemas.IngredientAddedEvent.required).toEqual(["ingredient", "category", "price", "timestamp"]);
  });
});
