/**
 * Nutrients with units: GET /v1/nutrients (definitions, and keys used without one as nulls),
 * GET and PUT /v1/nutrients/:key, `feedbase nutrient list|set`, export and import of the definitions,
 * the standard definitions every workspace starts with.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_NUTRIENTS } from "../src/domain/nutrients.ts";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";

setDefaultTimeout(60_000);

const tmp = tempDir();
let t: TestServer;
let read: string;
let write: string;

const byBytes = (a: { key: string }, b: { key: string }) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
const STANDARD = [...DEFAULT_NUTRIENTS].sort(byBytes);

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  writeFileSync(csv, "name,category,price,inStock,CP,Zn,Phytase FTU\nMaize,Cereals,228,yes,8.5,25,\nPhytase,Additives,9000,yes,,,5000000\n");
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
});
afterAll(async () => {
  await t.stop();
  tmp.cleanup();
});

const get = async (path: string, key = read) => {
  const res = await t.request("GET", path, { key });
  return { status: res.status, body: await res.json() };
};

describe("GET /v1/nutrients", () => {
  test("the standard definitions every workspace starts with, and keys used without one listed with nulls, by key", async () => {
    const { status, body } = await get("/v1/nutrients");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["status", "data", "timestamp"]);
    const undefinedKeys = [{ key: "Phytase FTU", name: null, unit: null, basis: null }, { key: "Zn", name: null, unit: null, basis: null }];
    expect(body.data).toEqual([...STANDARD, ...undefinedKeys].sort(byBytes));
    expect(body.data.find((n: { key: string }) => n.key === "CP")).toEqual({ key: "CP", name: "Crude protein", unit: "%", basis: "as-fed" });
    expect(body.data.find((n: { key: string }) => n.key === "NEL")).toEqual({ key: "NEL", name: "Net energy for lactation", unit: "Mcal/kg", basis: "dry-matter" });
  });

  test("one key: defined, used without a definition (nulls), or 404", async () => {
    expect((await get("/v1/nutrients/ME_poultry")).body.data).toEqual({ key: "ME_poultry", name: "Metabolisable energy, poultry (AMEn)", unit: "kcal/kg", basis: "as-fed" });
    expect((await get("/v1/nutrients/Phytase%20FTU")).body.data).toEqual({ key: "Phytase FTU", name: null, unit: null, basis: null });
    expect(await get("/v1/nutrients/Nope")).toEqual({ status: 404, body: { status: "error", message: "Nutrient not found: Nope (neither defined nor used by an ingredient)" } });
    const res = await t.request("DELETE", "/v1/nutrients/CP", { key: write });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, PUT");
  });
});

describe("PUT /v1/nutrients/:key", () => {
  test("201 with Location when new, 200 when replaced; the list shows it at once", async () => {
    const body = { name: "Zinc", unit: "mg/kg", basis: "as-fed" };
    const created = await t.request("PUT", "/v1/nutrients/Zn", { key: write, body });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/v1/nutrients/Zn");
    expect(await created.json()).toEqual({ status: "ok", data: { key: "Zn", ...body } });
    const replaced = await t.request("PUT", "/v1/nutrients/Zn", { key: write, body: { ...body, unit: "ppm" } });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get("location")).toBeNull();
    expect((await get("/v1/nutrients")).body.data.find((n: { key: string }) => n.key === "Zn")).toEqual({ key: "Zn", name: "Zinc", unit: "ppm", basis: "as-fed" });
    // A standard key is replaced like any other.
    expect((await t.request("PUT", "/v1/nutrients/CP", { key: write, body: { name: "Crude protein", unit: "g/kg", basis: "dry-matter" } })).status).toBe(200);
    expect((await get("/v1/nutrients/CP")).body.data).toEqual({ key: "CP", name: "Crude protein", unit: "g/kg", basis: "dry-matter" });
  });

  test("a read key is 403; bad bodies are 400 with the first problem", async () => {
    const put = async (body: unknown, key = write, path = "/v1/nutrients/Cu") => {
      const res = await t.request("PUT", path, { key, body });
      return { status: res.status, message: ((await res.json()) as { message?: string }).message };
    };
    expect((await put({ name: "Copper", unit: "mg/kg", basis: "as-fed" }, read)).status).toBe(403);
    expect(await put({ name: "Copper", unit: "mg/kg", basis: "wet" })).toEqual({ status: 400, message: "basis must be as-fed or dry-matter" });
    expect(await put({ name: "Copper", unit: "mg/kg" })).toMatchObject({ status: 400 });
    expect(await put({ name: "Copper", unit: "mg/kg", basis: "as-fed", key: "Cu" })).toEqual({ status: 400, message: "Unknown field: key" });
    expect(await put({ name: "", unit: "mg/kg", basis: "as-fed" })).toEqual({ status: 400, message: "name must be 1 to 200 characters" });
    expect((await put({ name: "Copper", unit: "mg/kg", basis: "as-fed" }, write, `/v1/nutrients/${"x".repeat(65)}`)).status).toBe(400);
    expect((await get("/v1/nutrients/Cu")).status).toBe(404);
  });
});

describe("feedbase nutrient, export nutrients, import nutrients", () => {
  test("set defines or redefines; list shows units, bases and undefined keys", async () => {
    const set = await cli(["nutrient", "set", "Phytase FTU", "--name", "Phytase activity", "--unit", "FTU/kg", "--basis", "as-fed", "--data", t.dataPath]);
    expect(set.stdout).toBe("Defined Phytase FTU: Phytase activity, FTU/kg, as-fed (workspace default)\n");
    const again = await cli(["nutrient", "set", "Phytase FTU", "--name", "Phytase activity", "--unit", "FTU/kg", "--basis", "as-fed", "--data", t.dataPath]);
    expect(again.stdout).toStartWith("Redefined Phytase FTU");
    expect((await get("/v1/nutrients/Phytase%20FTU")).body.data.unit).toBe("FTU/kg");
    const bad = await cli(["nutrient", "set", "X", "--name", "x", "--unit", "%", "--basis", "wet", "--data", t.dataPath]);
    expect(bad.code).toBe(2);
    const list = await cli(["nutrient", "list", "--data", t.dataPath]);
    expect(list.stdout).toMatch(/^ME_poultry +kcal\/kg +as-fed +Metabolisable energy, poultry \(AMEn\)$/m);
    const json = await cli(["nutrient", "list", "--json", "--data", t.dataPath]);
    expect(json.stdout.trimEnd().split("\n").map((l) => JSON.parse(l))).toEqual((await get("/v1/nutrients")).body.data);
  });

  test("a new workspace starts with the standard definitions; export → import carries a workspace's definitions to another", async () => {
    expect((await cli(["workspace", "create", "south", "--data", t.dataPath])).code).toBe(0);
    const south = await cli(["nutrient", "list", "--workspace", "south", "--json", "--data", t.dataPath]);
    expect(south.stdout.trimEnd().split("\n").map((l) => JSON.parse(l))).toEqual(STANDARD);

    for (const format of ["csv", "json"]) {
      const exported = await cli(["export", "nutrients", "--format", format, "--data", t.dataPath]);
      expect(exported.code).toBe(0);
      const path = join(tmp.dir, `n.${format}`);
      writeFileSync(path, exported.stdout);
      const imported = await cli(["import", "nutrients", path, "--workspace", "south", "--data", t.dataPath]);
      expect(imported.stderr).toBe("");
      const again = await cli(["export", "nutrients", "--format", format, "--workspace", "south", "--data", t.dataPath]);
      expect(again.stdout).toBe(exported.stdout);
    }
    const csv = (await cli(["export", "nutrients", "--format", "csv", "--data", t.dataPath])).stdout;
    expect(csv).toStartWith("key,name,unit,basis\n");
    expect(csv).toContain("\nZn,Zinc,ppm,as-fed\n");
  });

  test("a bad file is refused whole, naming its line", async () => {
    const path = join(tmp.dir, "bad.csv");
    writeFileSync(path, "key,name,unit,basis\nCu,Copper,mg/kg,as-fed\nMn,Manganese,mg/kg,wet\n");
    const r = await cli(["import", "nutrients", path, "--workspace", "south", "--data", t.dataPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${path}: line 3 (Mn): basis must be as-fed or dry-matter; nothing was imported\n`);
    const south = await cli(["nutrient", "list", "--workspace", "south", "--json", "--data", t.dataPath]);
    expect(south.stdout).not.toContain('"Cu"');
  });
});
