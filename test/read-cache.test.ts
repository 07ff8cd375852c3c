import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, seenByServer, startTestServer, type TestServer } from "./helpers/harness.ts";
import { storedEvents } from "./helpers/store.ts";

/** Bodies are kept serialized between writes; these tests prove no stale answer follows an acknowledged write. */
let t: TestServer;
let read: string;
let write: string;
beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  for (const name of ["Maize", "Wheat", "Barley"]) expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name, price: 100 } })).status).toBe(201);
});
afterAll(() => t.stop());

const priceOf = async (path: string, name: string) => {
  const body = await (await t.request("GET", path, { key: read })).json();
  return Array.isArray(body.data) ? body.data.find((i: { name: string }) => i.name === name)?.price : body.data.price;
};
const views = ["/v1/ingredients", "/v1/prices", "/v1/ingredients/Maize", "/v1/ingredients?category=General", "/v1/prices?inStock=true"];

describe("cached read bodies", () => {
  test("a write through the API is visible in every view as soon as it is acknowledged", async () => {
    for (let price = 101; price <= 110; price++) {
      for (const v of views) await priceOf(v, "Maize"); // fill the cache
      expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price } })).status).toBe(200);
      for (const v of views) expect(await priceOf(v, "Maize")).toBe(price);
    }
  });

  test("an admin command's write (another connection) is visible on the next request on SQLite, within 1 s on PostgreSQL", async () => {
    const csv = join(t.dataPath, "..", "admin.csv");
    for (let price = 201; price <= 205; price++) {
      for (const v of views) await priceOf(v, "Maize");
      writeFileSync(csv, `name,category,price,inStock\nMaize,General,${price},true\n`);
      expect((await cli(["import", "ingredients", csv, "--update", "--data", t.dataPath])).code).toBe(0);
      await seenByServer(async () => (await priceOf(views[0]!, "Maize")) === price);
      for (const v of views) expect(await priceOf(v, "Maize")).toBe(price);
    }
    await priceOf("/v1/ingredients", "Maize");
    writeFileSync(csv, "name,category,price,inStock\nSorghum,General,90,true\n");
    expect((await cli(["import", "ingredients", csv, "--data", t.dataPath])).code).toBe(0);
    await seenByServer(async () => (await priceOf("/v1/ingredients", "Sorghum")) === 90);
    expect((await t.request("GET", "/v1/ingredients/Sorghum", { key: read })).status).toBe(200);
  });

  test("cached lists keep filters apart: absent, empty and odd filter values are different bodies", async () => {
    const count = async (query: string) => (await (await t.request("GET", `/v1/ingredients${query}`, { key: read })).json()).count;
    const all = await count("");
    expect(all).toBeGreaterThan(0);
    expect(await count("?category=")).toBe(0);
    expect(await count("?category=%01")).toBe(0);
    expect(await count("?category=General%00x")).toBe(0);
    expect(await count("")).toBe(all);
    expect(await count("?category=General")).toBe(all);
  });

  test("a GET answered again from what it got (no routing) answers as routing would: per workspace, with its ETag and 304, 404s unchanged", async () => {
    const csv = join(t.dataPath, "..", "north.csv");
    writeFileSync(csv, "name,category,price,inStock\nMaize,North,7,true\n");
    expect((await cli(["workspace", "create", "north", "--name", "North", "--data", t.dataPath])).code).toBe(0);
    expect((await cli(["import", "ingredients", csv, "--workspace", "north", "--data", t.dataPath])).code).toBe(0);
    const north = t.key({ workspace: "north" });
    const get = (path: string, key: string, headers: Record<string, string> = {}) => t.request("GET", path, { key, headers, socket: true });
    for (const path of ["/v1/ingredients/Maize", "/v1/prices?inStock=true", "/v1/prices/Maize?from=2000-01-01T00:00:00.000Z"]) {
      const first = [await get(path, read), await get(path, north)];
      const again = [await get(path, read), await get(path, north), await get(path, write)];
      const data = async (res: Response) => (await res.json()).data;
      const firstData = await Promise.all(first.map(data));
      expect(firstData[0]).not.toEqual(firstData[1]);
      expect(await Promise.all(again.map(data))).toEqual([firstData[0], firstData[1], firstData[0]]);
      const etag = first[0]!.headers.get("etag")!;
      expect(again[0]!.headers.get("etag")).toBe(etag);
      expect(again[1]!.headers.get("etag")).not.toBe(etag);
      expect((await get(path, read, { "If-None-Match": etag })).status).toBe(304);
      expect((await get(path, north, { "If-None-Match": etag })).status).toBe(200);
    }
    for (let i = 0; i < 2; i++) expect((await get("/v1/ingredients/Nothing", read)).status).toBe(404);
  });

  test("timestamps stay per request while the body is cached", async () => {
    const a = await (await t.request("GET", "/v1/ingredients", { key: read })).json();
    await Bun.sleep(2);
    const b = await (await t.request("GET", "/v1/ingredients", { key: read })).json();
    expect(b.timestamp > a.timestamp).toBe(true);
    expect(b.data).toEqual(a.data);
  });

  test("concurrent writes share commits, each acknowledged one is durable and has its one event", async () => {
    const writes = Array.from({ length: 60 }, (_, i) => t.request("PUT", `/v1/prices/${["Maize", "Wheat", "Barley"][i % 3]}`, { key: write, body: { price: 1000 + i } }));
    const bad = t.request("PUT", "/v1/prices/Nothing", { key: write, body: { price: 1 } });
    const results = await Promise.all(writes);
    expect(results.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect((await bad).status).toBe(404);
    const events = storedEvents(t.dataPath, 1).filter((e) => e.type === "price.updated");
    const newPrices = events.map((e) => JSON.parse(e.payload).new_price).filter((p: number) => p >= 1000);
    expect(newPrices.sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => 1000 + i));
    expect(await priceOf("/v1/prices", "Barley")).toBe(1059);
  });
});
