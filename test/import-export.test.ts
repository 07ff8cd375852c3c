import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/store/db.ts";
import type { IngredientDetail } from "../src/store/ingredients.ts";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { databaseFor } from "./helpers/postgres.ts";
import { readStore, rowCount } from "./helpers/store.ts";

// Several CLI subprocesses per test: on a loaded 2-core machine each can take a second.
setDefaultTimeout(60_000);

const tmp = tempDir();
let t: TestServer;
let read: string;

/** A file in the test's directory; returns its path. */
function file(name: string, content: string | Uint8Array): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}
/** A new, empty data file (only serve and demo create one from the CLI), or the database standing for one. */
const extraData: ReturnType<typeof tempDir>[] = [];
function newDataFile(): string {
  const data = tempDir();
  extraData.push(data);
  if (databaseFor(data.dataPath) === undefined) openDatabase(data.dataPath, { create: true }).close();
  return data.dataPath;
}
const fb = (data: string, ...args: string[]) => cli([...args, "--data", data]);
const ingredientOf = (data: string, name: string, workspaceId = 1) => readStore(data, (s) => s.findIngredient(workspaceId, name));
const eventCount = (data: string) => rowCount(data, "events");

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
});
afterAll(async () => {
  await t.stop();
  tmp.cleanup();
  for (const data of extraData) data.cleanup();
});

describe("feedbase import ingredients (CSV)", () => {
  test("reads the value forms of docs/decisions.md#formulas-and-files; the running server sees the rows at once; --no-events fires none", async () => {
    const csv = [
      "\uFEFFname,category,price,inStock,CP,Lys,ME_poultry",
      '"Soybean meal, ""48%"" hipro",Protein meals,462.5,TRUE,48.5,2.96,2440',
      "Maize,Cereals,228,yes,8.5,,3350",
      "Barley,Cereals,214,No,11,0.4,",
      "Oats,Cereals,199,0,,,",
      "Wheat bran,,,,15.5,,",
      "Limestone,Minerals,72,1,,,",
    ].join("\r\n");
    const r = await fb(t.dataPath, "import", "ingredients", file("in.csv", csv), "--no-events");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Imported 6 ingredients into workspace default (6 new, 0 updated)\n");
    expect(await eventCount(t.dataPath)).toBe(0);

    const detail = async (name: string) => (await (await t.request("GET", `/v1/ingredients/${encodeURIComponent(name)}`, { key: read })).json()).data;
    expect(await detail('Soybean meal, "48%" hipro')).toMatchObject({ category: "Protein meals", price: 462.5, inStock: true, nutrients: { CP: 48.5, Lys: 2.96, ME_poultry: 2440 } });
    // An empty cell means the ingredient lacks the nutrient: Maize has no Lys at all (not 0).
    expect((await detail("Maize")).nutrients).toEqual({ CP: 8.5, ME_poultry: 3350 });
    expect(await detail("Barley")).toMatchObject({ inStock: false, nutrients: { CP: 11, Lys: 0.4 } });
    expect(await detail("Oats")).toMatchObject({ inStock: false, nutrients: {} });
    // Empty fixed cells take the API's defaults.
    expect(await detail("Wheat bran")).toMatchObject({ category: "General", price: 0, inStock: true, nutrients: { CP: 15.5 } });
    expect((await detail("Limestone")).inStock).toBe(true);
  });

  test("a bad row: exit 1, one line naming the file, line and column; nothing imported", async () => {
    const before = await (await t.request("GET", "/v1/ingredients", { key: read })).text();
    const path = file("bad.csv", "name,category,price,inStock,CP\nSorghum,Cereals,205,true,8.8\nRye,Cereals,x,true,9\n");
    const r = await fb(t.dataPath, "import", "ingredients", path);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${path}: line 3, column 3 (price): price must be a number; nothing was imported\n`);
    expect(r.stdout).toBe("");
    const after = await (await t.request("GET", "/v1/ingredients", { key: read })).text();
    expect(JSON.parse(after).data).toEqual(JSON.parse(before).data);
  });

  test("an existing name is refused without --update; with it the row replaces category, price, inStock and the nutrients of its columns", async () => {
    const data = newDataFile();
    expect((await fb(data, "import", "ingredients", file("u1.json", JSON.stringify([
      { name: "Maize", category: "Grain", price: 200, inStock: false, nutrients: { CP: 8, Starch: 62 }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
    ])), "--no-events")).code).toBe(0);
    const update = file("u2.csv", "name,category,price,inStock,CP,Lys\nMaize,Cereals,228,true,8.5,0.26\nSorghum,Cereals,205,true,8.8,\n");
    const refused = await fb(data, "import", "ingredients", update);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: ${update}: line 2: Ingredient already exists: Maize (use --update to replace it); nothing was imported\n`);
    expect(await ingredientOf(data, "Sorghum")).toBeNull();

    const r = await fb(data, "import", "ingredients", update, "--update", "--no-events");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Imported 2 ingredients into workspace default (1 new, 1 updated)\n");
    const maize = (await ingredientOf(data, "Maize"))!;
    expect(maize).toMatchObject({ category: "Cereals", price: 228, inStock: true, createdAt: "2026-01-01T00:00:00.000Z" });
    // Starch has no column in the file: kept.
    expect(maize.nutrients).toEqual({ CP: 8.5, Starch: 62, Lys: 0.26 });
    expect(maize.updatedAt > "2026-01-01T00:00:00.000Z").toBe(true);
    expect(await ingredientOf(data, "Sorghum")).toMatchObject({ price: 205, nutrients: { CP: 8.8 } });
    expect(await eventCount(data)).toBe(0);
  });

  test("--workspace imports into that workspace only", async () => {
    const data = newDataFile();
    expect((await fb(data, "workspace", "create", "north-mill", "--name", "North mill")).code).toBe(0);
    const other = (await readStore(data, (s) => s.requireWorkspace("north-mill"))).id;
    const r = await fb(data, "import", "ingredients", file("ws.csv", "name,category,price,inStock\nMaize,Cereals,228,true\n"), "--workspace", "north-mill");
    expect(r.code).toBe(0);
    expect(await ingredientOf(data, "Maize", other)).not.toBeNull();
    expect(await ingredientOf(data, "Maize", 1)).toBeNull();
  });

  test("an unreadable, non-UTF-8 or missing file is refused; so is a missing data file", async () => {
    const latin1 = file("latin1.csv", new Uint8Array([...new TextEncoder().encode("name,category,price,inStock\nMa"), 0xef, ...new TextEncoder().encode("s,Cereals,1,true\n")]));
    const [r1, r2, r3] = await Promise.all([
      fb(t.dataPath, "import", "ingredients", latin1),
      fb(t.dataPath, "import", "ingredients", join(tmp.dir, "nope.csv")),
      fb(join(tmp.dir, "missing.db"), "import", "ingredients", file("fine.csv", "name,category,price,inStock\nMaize,Cereals,1,true\n")),
    ]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toBe(`error: ${latin1} is not UTF-8 text (save it as "CSV UTF-8" or JSON)\n`);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toBe(`error: Cannot read ${join(tmp.dir, "nope.csv")}: no such file\n`);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toStartWith("error: No data file at");
  });
});

describe("round trips: export, import into a new data file, export again — byte-identical", () => {
  let source: string;
  beforeAll(async () => {
    source = newDataFile();
    const ingredients: IngredientDetail[] = [
      { name: "Soybean meal, \"48%\"", category: "Protein meals", price: 462.5, inStock: true, co2e: 4.6, nutrients: { ME_poultry: 2440, CP: 48.5, Lys: 2.96 }, createdAt: "2026-01-02T03:04:05.678Z", updatedAt: "2026-02-03T04:05:06.789Z" },
      { name: "=SUM(A1)", category: "Odd names", price: 0.001, inStock: false, co2e: -1000, nutrients: { toString: 1, constructor: 2, "x y": 0.00001 }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
      { name: "Maïs grain", category: "Cereals", price: 228, inStock: true, co2e: 0.42, nutrients: { CP: 8.5, Ca: 0.02 }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
      { name: "maize", category: "Cereals", price: 1e9, inStock: true, co2e: null, nutrients: {}, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
      { name: "Premix", category: "Additives", price: 2400, inStock: true, co2e: 1e-7, nutrients: { Ca: -0.5, CP: 1e-7 }, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
    ];
    expect((await fb(source, "import", "ingredients", file("src.json", JSON.stringify(ingredients)))).code).toBe(0);
    const formulas = [
      { id: "starter", name: "Starter", species: "Poultry", subcategory: "Broiler starter", batchSize: 2000, createdAt: "2026-01-08T07:45:00.000Z",
        ingredients: [{ name: "Maïs grain", percent: 60.347 }, { name: "Soybean meal, \"48%\"", percent: 39.153, price: 470 }, { name: "Premix", percent: 0.5 }],
        constraints: { nutrients: [{ key: "CP", min: 21.5, max: null }], ingredients: [{ name: "Premix", min: 0.5, max: 0.5 }],
          ratios: [{ numerator: "Ca", denominator: "CP", min: null, max: 0.5 }, { numerator: "CP", denominator: "Ca", min: 1.5, max: 1e6 }] } },
      { name: "Generated id", species: "Swine", subcategory: "Grower", batchSize: 1000, ingredients: [{ name: "Maïs grain", percent: 100 }], nutrients: { CP: 8.4 } },
    ];
    expect((await fb(source, "import", "formulas", file("src-formulas.json", JSON.stringify(formulas)))).code).toBe(0);
  });

  const roundTrip = async (what: string, format: string, imports: (target: string, exported: string) => Promise<void>) => {
    const first = await fb(source, "export", what, "--format", format);
    expect(first.code).toBe(0);
    const target = newDataFile();
    await imports(target, first.stdout);
    const second = await fb(target, "export", what, "--format", format);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    return first.stdout;
  };

  test("ingredients as CSV", async () => {
    const text = await roundTrip("ingredients", "csv", async (target, exported) => {
      expect((await fb(target, "import", "ingredients", file("rt.csv", exported))).code).toBe(0);
    });
    const lines = text.split("\n");
    // nutrient columns sorted by bytes ("C" < "L" < "M" < "c" < "t" < "x"), Object.prototype's names included
    expect(lines[0]).toBe("name,category,price,inStock,co2e,CP,Ca,Lys,ME_poultry,constructor,toString,x y");
    expect(lines).toContain('"Soybean meal, ""48%""",Protein meals,462.5,true,4.6,48.5,,2.96,2440,,,');
    expect(lines).toContain("Premix,Additives,2400,true,1e-7,1e-7,-0.5,,,,,");
    expect(lines).toContain("maize,Cereals,1000000000,true,,,,,,,,"); // an unknown footprint is an empty cell
    expect(lines).toContain("'=SUM(A1),Odd names,0.001,false,-1000,,,,,2,1,0.00001"); // guarded against spreadsheet formulas
  });

  test("ingredients as JSON, timestamps and nutrient order kept", async () => {
    const text = await roundTrip("ingredients", "json", async (target, exported) => {
      expect((await fb(target, "import", "ingredients", file("rt.json", exported))).code).toBe(0);
    });
    const parsed = JSON.parse(text);
    expect(parsed.map((i: { name: string }) => i.name)).toEqual(["=SUM(A1)", "maize", "Maïs grain", "Premix", 'Soybean meal, "48%"']);
    expect(Object.keys(parsed[4].nutrients)).toEqual(["ME_poultry", "CP", "Lys"]);
    expect(parsed[4]).toMatchObject({ createdAt: "2026-01-02T03:04:05.678Z", updatedAt: "2026-02-03T04:05:06.789Z" });
    expect(parsed[0].nutrients).toEqual({ toString: 1, constructor: 2, "x y": 0.00001 });
  });

  test("formulas as JSON, with row prices, nutrients and generated ids kept", async () => {
    const text = await roundTrip("formulas", "json", async (target, exported) => {
      expect((await fb(target, "import", "ingredients", file("rt-ing.json", (await fb(source, "export", "ingredients")).stdout))).code).toBe(0);
      expect((await fb(target, "import", "formulas", file("rt-formulas.json", exported))).code).toBe(0);
    });
    const [generated, starter] = JSON.parse(text);
    expect(generated.id).toMatch(/^frm_[0-9A-Za-z]{16}$/);
    expect(generated.nutrients).toEqual({ CP: 8.4 });
    expect(Object.keys(starter)).toEqual(["id", "name", "species", "subcategory", "batchSize", "createdAt", "ingredients", "nutrients", "constraints"]);
    expect(generated.constraints).toEqual({ nutrients: [], ingredients: [], ratios: [] });
    expect(starter.constraints.ratios).toEqual([{ numerator: "Ca", denominator: "CP", min: null, max: 0.5 }, { numerator: "CP", denominator: "Ca", min: 1.5, max: 1e6 }]);
    expect(starter.ingredients).toEqual([
      { name: "Maïs grain", percent: 60.347, price: 228 },
      { name: "Soybean meal, \"48%\"", percent: 39.153, price: 470 },
      { name: "Premix", percent: 0.5, price: 2400 },
    ]);
  });

  test("formulas as CSV: one row per composition line, for spreadsheets", async () => {
    const r = await fb(source, "export", "formulas", "--format", "csv");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("id,name,species,subcategory,batchSize,totalCost,createdAt,ingredient,percent,amount,price,cost");
    expect(lines).toHaveLength(1 + 1 + 3);
    // 1206.94 kg × 228/t = 275.18; 783.06 kg × 470/t = 368.04; 10 kg × 2400/t = 24; total 667.2224... → 667.22
    expect(lines.slice(2)).toEqual([
      "starter,Starter,Poultry,Broiler starter,2000,667.22,2026-01-08T07:45:00.000Z,Maïs grain,60.347,1206.94,228,275.18",
      'starter,Starter,Poultry,Broiler starter,2000,667.22,2026-01-08T07:45:00.000Z,"Soybean meal, ""48%""",39.153,783.06,470,368.04',
      "starter,Starter,Poultry,Broiler starter,2000,667.22,2026-01-08T07:45:00.000Z,Premix,0.5,10,2400,24",
    ]);
  });

  test("--format other than json or csv is a usage error (exit 2)", async () => {
    const r = await fb(source, "export", "ingredients", "--format", "xml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--format must be one of json, csv");
  });
});

describe("feedbase import formulas", () => {
  test("prints what it imported, warns of unmet constraints, --replace overwrites", async () => {
    const data = newDataFile();
    expect((await fb(data, "import", "ingredients", file("f-ing.csv", "name,category,price,inStock,CP\nMaize,Cereals,228,true,8.5\nSoybean meal 48%,Protein meals,462.5,true,48.5\n"))).code).toBe(0);
    const formula = (cpMin: number, maize: number) => [{ id: "starter", name: "Starter", species: "Poultry", subcategory: "Broiler starter", batchSize: 1000,
      ingredients: [{ name: "Maize", percent: maize }, { name: "Soybean meal 48%", percent: 100 - maize }],
      constraints: { nutrients: [{ key: "CP", min: cpMin, max: null }] } }];
    const first = await fb(data, "import", "formulas", file("f1.json", JSON.stringify(formula(30, 60))));
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Imported 1 formula into workspace default\nID       NAME     TOTAL COST\nstarter  Starter  321.80\n");
    // CP = 0.6 × 8.5 + 0.4 × 48.5 = 24.5, under its own minimum of 30: saved (it is the formulator's record), with a warning.
    expect(first.stderr).toBe("warning: starter does not meet its constraints: CP 24.5 < min 30\n");

    const again = file("f2.json", JSON.stringify(formula(20, 50)));
    const refused = await fb(data, "import", "formulas", again);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: ${again}: Formula 1 "Starter" (starter): Formula already exists: starter (use --replace to overwrite it); nothing was imported\n`);
    const replaced = await fb(data, "import", "formulas", again, "--replace");
    expect(replaced.code).toBe(0);
    expect(replaced.stderr).toBe("");
    const exported = JSON.parse((await fb(data, "export", "formulas")).stdout);
    expect(exported).toHaveLength(1);
    expect(exported[0].ingredients.map((r: { percent: number }) => r.percent)).toEqual([50, 50]);
  });

  test("a composition that misses a ratio limit is saved with a warning; the detail reports its ratios", async () => {
    const data = newDataFile();
    expect((await fb(data, "import", "ingredients", file("r-ing.csv", "name,category,price,inStock,Ca,avP\nLimestone,Minerals,60,true,38,\nDicalcium phosphate,Minerals,700,true,22,18.5\n"))).code).toBe(0);
    const formula = [{ id: "mineral", name: "Mineral", species: "Poultry", subcategory: "Layer", batchSize: 1000,
      ingredients: [{ name: "Limestone", percent: 50 }, { name: "Dicalcium phosphate", percent: 50 }],
      constraints: { ratios: [{ numerator: "Ca", denominator: "avP", min: 1.5, max: 2.5 }, { numerator: "avP", denominator: "Ca", min: 0.1, max: null }] } }];
    const r = await fb(data, "import", "formulas", file("r.json", JSON.stringify(formula)));
    expect(r.code).toBe(0);
    // Ca = 0.5 × 38 + 0.5 × 22 = 30, avP = 9.25: Ca/avP = 3.2432 breaks its max of 2.5; avP/Ca = 0.3083 meets its min.
    expect(r.stderr).toBe("warning: mineral does not meet its constraints: Ca/avP 3.2432 > max 2.5\n");
    expect((await readStore(data, (s) => s.requireFormula(1, "mineral"))).constraints).toEqual({
      nutrients: [],
      ingredients: [],
      ratios: [{ numerator: "Ca", denominator: "avP", min: 1.5, max: 2.5 }, { numerator: "avP", denominator: "Ca", min: 0.1, max: null }],
    });
  });
});

describe("feedbase ingredient delete and formula delete", () => {
  test("an ingredient used by formulas is refused, naming them; after the formulas go, it can be deleted", async () => {
    const data = newDataFile();
    expect((await fb(data, "import", "ingredients", file("d.csv", "name,category,price,inStock\nMaize,Cereals,228,true\nSoybean meal 48%,Protein meals,462.5,true\nOats,Cereals,199,true\n"), "--no-events")).code).toBe(0);
    const f = (id: string) => ({ id, name: id, species: "Poultry", subcategory: "Layer", batchSize: 1000, ingredients: [{ name: "Maize", percent: 70 }, { name: "Soybean meal 48%", percent: 30 }] });
    expect((await fb(data, "import", "formulas", file("d.json", JSON.stringify([f("layer-2"), f("layer-1")])), "--no-events")).code).toBe(0);

    const refused = await fb(data, "ingredient", "delete", "Maize");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("error: Ingredient Maize is used by 2 formulas: layer-1, layer-2 (delete or re-import them first)\n");
    expect(await ingredientOf(data, "Maize")).not.toBeNull();

    const unused = await fb(data, "ingredient", "delete", "Oats");
    expect(unused.code).toBe(0);
    expect(unused.stdout).toBe("Deleted ingredient Oats from workspace default\n");
    expect(await ingredientOf(data, "Oats")).toBeNull();

    const deleted = await Promise.all(["layer-1", "layer-2"].map((id) => fb(data, "formula", "delete", id)));
    expect(deleted.map((r) => [r.code, r.stdout])).toEqual([
      [0, "Deleted formula layer-1 from workspace default\n"],
      [0, "Deleted formula layer-2 from workspace default\n"],
    ]);
    expect((await fb(data, "export", "formulas")).stdout).toBe("[]\n");
    expect((await fb(data, "ingredient", "delete", "Maize")).code).toBe(0);
    expect(await eventCount(data)).toBe(0);
  });

  test("unknown names and ids fail with exit 1 and one line", async () => {
    const [r1, r2] = await Promise.all([fb(t.dataPath, "ingredient", "delete", "Unobtainium"), fb(t.dataPath, "formula", "delete", "nope")]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toBe("error: Ingredient not found: Unobtainium\n");
    expect(r2.code).toBe(1);
    expect(r2.stderr).toBe("error: Formula not found: nope\n");
  });

  test("a deletion made while serving shows in the API at once", async () => {
    const write = t.key({ write: true });
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name: "Short-lived" } })).status).toBe(201);
    expect((await fb(t.dataPath, "ingredient", "delete", "Short-lived")).code).toBe(0);
    expect((await t.request("GET", "/v1/ingredients/Short-lived", { key: read })).status).toBe(404);
  });
});

test("help of every command added here carries an example", async () => {
  const commands = [["import", "ingredients"], ["import", "formulas"], ["export", "ingredients"], ["export", "formulas"], ["ingredient", "delete"], ["formula", "delete"], ["demo"]];
  for (const r of await Promise.all(commands.map((c) => cli([...c, "--help"])))) {
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Examples:\n  $ feedbase ");
  }
});
