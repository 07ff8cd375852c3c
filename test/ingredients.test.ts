import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";
import { storedEvents } from "./helpers/store.ts";

let t: TestServer;
let read: string;
let write: string;
let otherWrite: string;

const enc = encodeURIComponent;

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  expect((await cli(["workspace", "create", "other", "--name", "Other mill", "--data", t.dataPath])).code).toBe(0);
  otherWrite = t.key({ write: true, workspace: "other" });
});
afterAll(() => t.stop());

const post = (body: unknown, key = write) => t.request("POST", "/v1/ingredients", { key, body });
const put = (path: string, body: unknown, key = write) => t.request("PUT", path, { key, body });
const events = () => storedEvents(t.dataPath, 1);
const snapshot = async () => (await (await t.request("GET", "/v1/ingredients", { key: read })).json()).data;

describe("POST /v1/ingredients", () => {
  test("creates with defaults, answers 201 with the detail and a Location", async () => {
    const res = await post({ name: "  Maize  " });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/v1/ingredients/Maize");
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["status", "data"]);
    expect(body.data).toMatchObject({ name: "Maize", category: "General", price: 0, inStock: true, co2e: null, nutrients: {} });
    expect(Object.keys(body.data)).toEqual(["name", "category", "price", "inStock", "co2e", "nutrients", "createdAt", "updatedAt"]);
  });

  test("keeps nutrients in the order given and names with %, / and accents round-trip", async () => {
    for (const name of ["Soybean meal 48%", "Wheat/Barley mix", "Maïs grain"]) {
      const res = await post({ name, category: "Protein meals", price: 455, inStock: false, nutrients: { ME_poultry: 2440, CP: 48.5, Lys: 2.96, CF: 3.9 } });
      expect(res.status).toBe(201);
      expect(res.headers.get("location")).toBe(`/v1/ingredients/${enc(name)}`);
      const got = await t.request("GET", `/v1/ingredients/${enc(name)}`, { key: read });
      expect(got.status).toBe(200);
      const body = await got.json();
      expect(Object.keys(body)).toEqual(["status", "data", "timestamp"]);
      expect(body.data.name).toBe(name);
      expect(Object.keys(body.data.nutrients)).toEqual(["ME_poultry", "CP", "Lys", "CF"]);
      expect(body.data).toMatchObject({ category: "Protein meals", price: 455, inStock: false });
    }
  });

  test("a duplicate name is 409 and writes no event", async () => {
    await post({ name: "Barley" });
    const before = events().length;
    const res = await post({ name: "Barley", price: 3 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ status: "error", message: "Ingredient already exists: Barley" });
    expect(events().length).toBe(before);
  });

  test("a read-only key is 403 before the body is looked at", async () => {
    const res = await t.request("POST", "/v1/ingredients", { key: read, raw: "not json" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ status: "error", message: "Write permission required" });
  });

  const long = "x".repeat(201);
  const badBodies: [string, string | Uint8Array, string][] = [
    ["empty body", "", "Request body must be valid JSON"],
    ["invalid JSON", "{name:", "Request body must be valid JSON"],
    ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x6e, 0xff, 0x22, 0x7d]), "Request body must be valid JSON"],
    ["array", "[]", "Request body must be a JSON object"],
    ["null", "null", "Request body must be a JSON object"],
    ["number", "3", "Request body must be a JSON object"],
    ["missing name", "{}", "name is required"],
    ["name not a string", '{"name":5}', "name must be a string"],
    ["empty name", '{"name":""}', "name must be 1 to 200 characters"],
    ["blank name", '{"name":"   "}', "name must be 1 to 200 characters"],
    ["over-long name", JSON.stringify({ name: long }), "name must be 1 to 200 characters"],
    ["control character", JSON.stringify({ name: "Mai\u0000ze" }), "name must not contain control characters"],
    ["tab in name", JSON.stringify({ name: "Mai\tze" }), "name must not contain control characters"],
    ["category empty", '{"name":"A","category":""}', "category must be 1 to 100 characters"],
    ["category not a string", '{"name":"A","category":7}', "category must be a string"],
    ["negative price", '{"name":"A","price":-1}', "price must be a number >= 0"],
    ["price too large", '{"name":"A","price":1e10}', "price must be a number <= 1000000000"],
    ["price overflow", '{"name":"A","price":1e400}', "price must be a number"],
    ["price a string", '{"name":"A","price":"3"}', "price must be a number"],
    ["inStock a string", '{"name":"A","inStock":"yes"}', "inStock must be true or false"],
    ["unknown field", '{"name":"A","inStok":true}', "Unknown field: inStok"],
    ["unknown fields", '{"name":"A","b":1,"a":2}', "Unknown field: b, a"],
    ["nutrients an array", '{"name":"A","nutrients":[]}', "nutrients must be an object"],
    ["nutrient not a number", '{"name":"A","nutrients":{"CP":"8"}}', "nutrients.CP must be a number"],
    ["nutrient too large", '{"name":"A","nutrients":{"CP":2e9}}', "nutrients.CP must be a number <= 1000000000"],
    ["nutrient too small", '{"name":"A","nutrients":{"CP":-2e9}}', "nutrients.CP must be a number >= -1000000000"],
    ["nutrient key empty", '{"name":"A","nutrients":{"":1}}', "nutrient keys must be 1 to 64 characters without control characters"],
    ["nutrient key long", JSON.stringify({ name: "A", nutrients: { ["k".repeat(65)]: 1 } }), "nutrient keys must be 1 to 64 characters without control characters"],
    ["__proto__ nutrient", '{"name":"A","nutrients":{"__proto__":1,"CP":2}}', "__proto__ cannot be a nutrient key"],
    ["too many nutrients", JSON.stringify({ name: "A", nutrients: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, 1])) }), "nutrients must have at most 500 keys"],
  ];
  test.each(badBodies)("%s → 400", async (_label, raw, message) => {
    const before = await snapshot();
    const eventsBefore = events().length;
    const res = await t.request("POST", "/v1/ingredients", { key: write, raw });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: "error", message });
    expect(await snapshot()).toEqual(before);
    expect(events().length).toBe(eventsBefore);
  });

  test("500 nutrients and a 200-character name are accepted", async () => {
    const res = await post({ name: "y".repeat(200), nutrients: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) });
    expect(res.status).toBe(201);
  });

  test("exactly 1 MiB is read; one byte more is 413 (declared or streamed)", async () => {
    const pad = (n: number) => {
      const head = '{"name":"Padded","nutrients":{},"category":"';
      return head + "c".repeat(n - head.length - 2) + '"}';
    };
    const exact = pad(1_048_576);
    expect(exact.length).toBe(1_048_576);
    // Exactly at the limit: read and validated (category too long), so a 400, not a 413.
    const atLimit = await t.request("POST", "/v1/ingredients", { key: write, raw: exact });
    expect(atLimit.status).toBe(400);
    expect((await atLimit.json()).message).toBe("category must be 1 to 100 characters");
    const over = await t.request("POST", "/v1/ingredients", { key: write, raw: exact + " " });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ status: "error", message: "Request body too large" });
    expect(over.headers.get("x-request-id")).toBeTruthy();
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(exact));
        c.enqueue(new TextEncoder().encode(" "));
        c.close();
      },
    });
    const chunked = await fetch(t.url + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": write }, body: stream });
    expect(chunked.status).toBe(413);
  });
});

describe("GET /v1/ingredients and /v1/prices", () => {
  test("list items carry the nutrient count, ordered by name case-insensitively, pools sorted", async () => {
    const made = await post({ name: "alfalfa meal", category: "Forages", price: 210, nutrients: { CP: 17, CF: 24 } });
    expect(made.status).toBe(201);
    await post({ name: "Zinc premix", category: "additives", price: 900, inStock: false });
    const res = await t.request("GET", "/v1/ingredients", { key: read });
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["status", "data", "count", "pools", "timestamp"]);
    expect(body.count).toBe(body.data.length);
    const names = body.data.map((i: { name: string }) => i.name);
    // SQLite's NOCASE folds ASCII letters only; ties and everything else compare by bytes.
    const fold = (s: string) => Buffer.from(s.replace(/[A-Z]/g, (c) => c.toLowerCase()));
    const sorted = [...names].sort((a: string, b: string) => Buffer.compare(fold(a), fold(b)) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(names).toEqual(sorted);
    expect(names[0]).toBe("alfalfa meal");
    const alfalfa = body.data[0];
    expect(alfalfa).toEqual({ name: "alfalfa meal", category: "Forages", price: 210, inStock: true, nutrients: 2 });
    expect(body.pools).toEqual(["additives", "Forages", "General", "Protein meals"]);
  });

  test("filters are exact and additive; pools stay workspace-wide", async () => {
    const res = await t.request("GET", "/v1/ingredients?category=Forages&inStock=true&unknown=1", { key: read });
    const body = await res.json();
    expect(body.data.map((i: { name: string }) => i.name)).toEqual(["alfalfa meal"]);
    expect(body.pools).toContain("General");
    expect((await (await t.request("GET", "/v1/ingredients?category=forages", { key: read })).json()).count).toBe(0);
    const out = await (await t.request("GET", "/v1/prices?inStock=false", { key: read })).json();
    expect(out.data.every((p: { inStock: boolean }) => p.inStock === false)).toBe(true);
    expect(out.data.length).toBeGreaterThan(0);
  });

  test("a bad filter value is 400", async () => {
    const res = await t.request("GET", "/v1/ingredients?inStock=yes", { key: read });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: "error", message: "inStock must be true or false" });
  });

  test("the price list has no timestamp and its items the spec's fields", async () => {
    const body = await (await t.request("GET", "/v1/prices", { key: read })).json();
    expect(Object.keys(body)).toEqual(["status", "data", "count"]);
    expect(Object.keys(body.data[0])).toEqual(["name", "price", "inStock", "category"]);
  });
});

describe("PUT /v1/ingredients/:name and /v1/prices/:name", () => {
  test("both paths update the price and write exactly one event per change", async () => {
    await post({ name: "Wheat", category: "Cereals", price: 200 });
    const before = events().length;
    const prices = [210, 215.5, 209];
    for (const [i, price] of prices.entries()) {
      const path = i % 2 === 0 ? "/v1/ingredients/Wheat" : "/v1/prices/Wheat";
      const res = await put(path, { price });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(["status", "data"]);
      expect(body.data).toMatchObject({ name: "Wheat", price, inStock: true });
    }
    const added = events().slice(before);
    expect(added).toHaveLength(3);
    expect(added.map((e) => JSON.parse(e.payload))).toEqual([
      { ingredient: "Wheat", old_price: 200, new_price: 210, timestamp: expect.any(String) },
      { ingredient: "Wheat", old_price: 210, new_price: 215.5, timestamp: expect.any(String) },
      { ingredient: "Wheat", old_price: 215.5, new_price: 209, timestamp: expect.any(String) },
    ]);
    expect(added.every((e) => e.type === "price.updated" && e.keyId?.startsWith("key_"))).toBe(true);
  });

  test("the event payload bytes are the spec's fields in order", async () => {
    await put("/v1/prices/Wheat", { price: 212 });
    const last = events().at(-1)!;
    expect(last.payload).toMatch(/^\{"ingredient":"Wheat","old_price":209,"new_price":212,"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"\}$/);
    const added = events().find((e) => e.type === "ingredient.added" && e.ingredient === "Wheat")!;
    expect(added.payload).toMatch(/^\{"ingredient":"Wheat","category":"Cereals","price":200,"timestamp":"[^"]+"\}$/);
  });

  test("a repeated price or a stock-only change writes no event", async () => {
    const before = events().length;
    expect((await put("/v1/ingredients/Wheat", { price: 212 })).status).toBe(200);
    const res = await put("/v1/prices/Wheat", { price: 212, inStock: false });
    expect((await res.json()).data.inStock).toBe(false);
    expect(events().length).toBe(before);
  });

  test("unknown name is 404 and a PUT never creates", async () => {
    const res = await put("/v1/prices/Nothing%20here", { price: 1 });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: "error", message: "Ingredient not found: Nothing here" });
    expect((await t.request("GET", "/v1/ingredients/Nothing%20here", { key: read })).status).toBe(404);
  });

  test.each([
    ["{}", "price is required"],
    ['{"price":null}', "price must be a number"],
    ['{"price":-5}', "price must be a number >= 0"],
    ['{"price":5,"inStock":1}', "inStock must be true or false"],
    ['{"price":5,"name":"x"}', "Unknown field: name"],
    ["[1]", "Request body must be a JSON object"],
  ])("bad body %s → 400 %s, nothing changed", async (raw, message) => {
    const before = events().length;
    const res = await t.request("PUT", "/v1/prices/Wheat", { key: write, raw });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: "error", message });
    expect(events().length).toBe(before);
  });

  test("read-only key is 403 and no event", async () => {
    const before = events().length;
    const res = await put("/v1/prices/Wheat", { price: 999 }, read);
    expect(res.status).toBe(403);
    expect(events().length).toBe(before);
  });

  test("validation comes before existence: a bad body on an unknown name is 400", async () => {
    const res = await put("/v1/prices/Nothing", { price: -1 });
    expect(res.status).toBe(400);
  });
});

describe("paths", () => {
  test("a malformed escape or invalid UTF-8 is 400; a name with a trailing space is not trimmed", async () => {
    for (const path of ["/v1/ingredients/%ZZ", "/v1/ingredients/%FF", "/v1/ingredients/Ma%"]) {
      const res = await t.request("GET", path, { key: read });
      expect(res.status).toBe(400);
      expect((await res.json()).status).toBe("error");
    }
    const res = await t.request("GET", "/v1/ingredients/Maize%20", { key: read });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe("Ingredient not found: Maize ");
  });
  test("an impossible name is simply not found; a bare trailing slash is Not found", async () => {
    const res = await t.request("GET", `/v1/ingredients/${"n".repeat(300)}`, { key: read });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe(`Ingredient not found: ${"n".repeat(300)}`);
    const nul = await t.request("GET", "/v1/ingredients/a%00b", { key: read });
    expect(nul.status).toBe(404);
    const bare = await t.request("GET", "/v1/ingredients/", { key: read });
    expect(await bare.json()).toEqual({ status: "error", message: "Not found" });
  });
  test.each([
    ["/v1/ingredients", "DELETE", "GET, HEAD, POST"],
    ["/v1/ingredients/Maize", "POST", "GET, HEAD, PUT"],
    ["/v1/prices", "PUT", "GET, HEAD"],
    // Since the price history, the path serves GET and HEAD too: no route serves PUT alone.
    ["/v1/prices/Maize", "POST", "GET, HEAD, PUT"],
    ["/v1/prices/Maize", "OPTIONS", "GET, HEAD, PUT"],
  ])("%s %s → 405 Allow: %s", async (path, method, allow) => {
    const res = await t.request(method, path, { key: write });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
  });
});

describe("workspace isolation", () => {
  test("another workspace's ingredient is a 404 and never listed; its writes do not touch ours", async () => {
    expect((await t.request("GET", "/v1/ingredients/Wheat", { key: otherWrite })).status).toBe(404);
    expect((await put("/v1/prices/Wheat", { price: 1 }, otherWrite)).status).toBe(404);
    const list = await (await t.request("GET", "/v1/ingredients", { key: otherWrite })).json();
    expect(list).toMatchObject({ count: 0, data: [], pools: [] });
    expect((await post({ name: "Wheat", price: 1 }, otherWrite)).status).toBe(201);
    const ours = await (await t.request("GET", "/v1/ingredients/Wheat", { key: read })).json();
    expect(ours.data.price).toBe(212);
  });
});
