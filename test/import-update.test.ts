/**
 * What an import may change: `import ingredients --update` touches only what the file names, and
 * `import prices` (the weekly purchasing file) changes prices and stock with their history entries.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/store/db.ts";
import { cli, tempDir } from "./helpers/harness.ts";
import { databaseFor } from "./helpers/postgres.ts";
import { readStore } from "./helpers/store.ts";

setDefaultTimeout(60_000);

const dirs: ReturnType<typeof tempDir>[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

/** A fresh data file (or the database standing for it) holding Maize and Soy with their nutrients. */
async function seeded(): Promise<{ data: string; file(name: string, text: string): string }> {
  const d = tempDir();
  dirs.push(d);
  if (databaseFor(d.dataPath) === undefined) openDatabase(d.dataPath, { create: true }).close();
  const file = (name: string, text: string) => {
    const path = join(d.dir, name);
    writeFileSync(path, text);
    return path;
  };
  const first = await cli(["import", "ingredients", file("first.csv", "name,category,price,inStock,CP,Lys,ME_poultry\nMaize,Cereals,228,yes,8.5,0.26,3350\nSoy,Protein meals,455,yes,46,2.8,2230\n"), "--data", d.dataPath]);
  expect(first.code).toBe(0);
  return { data: d.dataPath, file };
}

const fb = (data: string, ...args: string[]) => cli([...args, "--data", data]);
const ingredient = (data: string, name: string) => readStore(data, (s) => s.findIngredient(1, name));
const history = (data: string, name: string) => readStore(data, async (s) => (await s.priceHistory(1, name)).history);

describe("import ingredients --update touches only what the file names", () => {
  test("a file name,category,price,inStock changes those fields and keeps every nutrient", async () => {
    // Before the fix this reported "1 updated" and emptied all nutrients of Maize.
    const { data, file } = await seeded();
    const r = await fb(data, "import", "ingredients", file("prices.csv", "name,category,price,inStock\nMaize,Grain,231,no\n"), "--update");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Imported 1 ingredient into workspace default (0 new, 1 updated)\n");
    expect(await ingredient(data, "Maize")).toMatchObject({ category: "Grain", price: 231, inStock: false, nutrients: { CP: 8.5, Lys: 0.26, ME_poultry: 3350 } });
  });

  test("name,price is a price update: category, stock and nutrients stay; the history gets the change", async () => {
    const { data, file } = await seeded();
    const r = await fb(data, "import", "ingredients", file("p.csv", "name,price\nSoy,470\n"), "--update");
    expect(r.code).toBe(0);
    const soy = (await ingredient(data, "Soy"))!;
    expect(soy).toMatchObject({ category: "Protein meals", price: 470, inStock: true });
    expect(soy.nutrients).toEqual({ CP: 46, Lys: 2.8, ME_poultry: 2230 });
    expect((await history(data, "Soy")).map((h) => [h.price, h.source])).toEqual([[470, "import"], [455, "import"]]);
  });

  test("a present nutrient column sets its value, an empty cell removes it, other nutrients stay in their order", async () => {
    const { data, file } = await seeded();
    const r = await fb(data, "import", "ingredients", file("n.csv", "name,Lys,CP,Starch\nMaize,0.3,,62\n"), "--update");
    expect(r.code).toBe(0);
    const maize = (await ingredient(data, "Maize"))!;
    expect(maize).toMatchObject({ category: "Cereals", price: 228, inStock: true });
    expect(Object.entries(maize.nutrients)).toEqual([["Lys", 0.3], ["ME_poultry", 3350], ["Starch", 62]]);
  });

  test("a new name in a file without every column of a plain import rejects the whole file, naming its line", async () => {
    const { data, file } = await seeded();
    const path = file("new.csv", "name,price\nSoy,470\nBarley,214\n");
    const r = await fb(data, "import", "ingredients", path, "--update");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${path}: line 3: Barley is a new ingredient, which needs the columns name,category,price,inStock (the file has no category, inStock column); nothing was imported\n`);
    expect((await ingredient(data, "Soy"))!.price).toBe(455);
    expect(await ingredient(data, "Barley")).toBeNull();
  });

  test("with every column a new name is added beside the updates; without --update the short header is refused as before", async () => {
    const { data, file } = await seeded();
    const path = file("mixed.csv", "name,inStock,price,category\nBarley,yes,214,Cereals\nMaize,no,,\n");
    const r = await fb(data, "import", "ingredients", path, "--update");
    expect(r.stdout).toBe("Imported 2 ingredients into workspace default (1 new, 1 updated)\n");
    expect(await ingredient(data, "Barley")).toMatchObject({ category: "Cereals", price: 214, inStock: true, nutrients: {} });
    // An empty price or category cell of an existing row keeps the stored value.
    expect(await ingredient(data, "Maize")).toMatchObject({ category: "Cereals", price: 228, inStock: false, nutrients: { CP: 8.5 } });
    const plain = await fb(data, "import", "ingredients", file("short.csv", "name,price\nOats,199\n"));
    expect(plain.stderr).toContain("line 1: the header must begin with name,category,price,inStock (found name,price)");
  });

  test("JSON --update: fields an item leaves out are kept; nutrients given replace the set", async () => {
    const { data, file } = await seeded();
    const r = await fb(data, "import", "ingredients", file("u.json", JSON.stringify([{ name: "Maize", price: 240 }, { name: "Soy", nutrients: { CP: 47 } }])), "--update");
    expect(r.code).toBe(0);
    expect(await ingredient(data, "Maize")).toMatchObject({ category: "Cereals", price: 240, inStock: true, nutrients: { CP: 8.5, Lys: 0.26, ME_poultry: 3350 } });
    const soy = (await ingredient(data, "Soy"))!;
    expect(soy).toMatchObject({ category: "Protein meals", price: 455 });
    expect(soy.nutrients).toEqual({ CP: 47 });
  });
});

describe("import prices", () => {
  test("changes price and stock, prints changed and unchanged; a repeated row changes nothing", async () => {
    const { data, file } = await seeded();
    const before = (await ingredient(data, "Maize"))!;
    const r = await fb(data, "import", "prices", file("week.csv", "name,price,inStock\nMaize,228,yes\nSoy,461.5,no\n"));
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1 changed, 1 unchanged (workspace default)\n");
    expect(await ingredient(data, "Maize")).toEqual(before);
    expect(await ingredient(data, "Soy")).toMatchObject({ price: 461.5, inStock: false, nutrients: { CP: 46 } });
    expect((await history(data, "Maize")).length).toBe(1);
    expect((await history(data, "Soy")).map((h) => [h.price, h.inStock, h.source])).toEqual([[461.5, false, "import"], [455, true, "import"]]);
    // Without inStock the flag stays; a second run of the same file changes nothing.
    const again = await fb(data, "import", "prices", file("again.csv", "price,name\n461.5,Soy\n"));
    expect(again.stdout).toBe("0 changed, 1 unchanged (workspace default)\n");
  });

  test("`at` dates the history entry (a date means its 00:00Z); an empty cell means now", async () => {
    const { data, file } = await seeded();
    const [created] = await history(data, "Maize");
    // A moment after the first load: the entries are recorded at the import's time.
    const past = new Date(Date.parse(created!.at) + 1).toISOString();
    const r = await fb(data, "import", "prices", file("at.csv", `name,price,at\nMaize,230,${past}\nSoy,460,\n`));
    expect(r.stdout).toBe("2 changed, 0 unchanged (workspace default)\n");
    expect((await history(data, "Maize"))[0]).toMatchObject({ price: 230, at: past, source: "import" });
    const soyAt = (await history(data, "Soy"))[0]!.at;
    expect(soyAt > past).toBe(true);
    // The stored price is the file's, whatever instant its entry carries.
    expect((await ingredient(data, "Maize"))!.price).toBe(230);
  });

  test("an `at` before the ingredient's last entry, in the future, an unknown name, a repeated name or a bad value rejects the whole file naming the line", async () => {
    const { data, file } = await seeded();
    const refused = async (name: string, text: string) => {
      const path = file(name, text);
      const r = await fb(data, "import", "prices", path);
      expect(r.code).toBe(1);
      return r.stderr.replace(`error: ${path}: `, "");
    };
    expect(await refused("old.csv", "name,price,at\nSoy,470,\nMaize,230,2026-01-05\n")).toMatch(/^line 3: at 2026-01-05T00:00:00\.000Z is before Maize's last price entry \(20\d\d-.*\); nothing was imported\n$/);
    expect(await refused("future.csv", "name,price,at\nMaize,230,2999-01-01\n")).toBe("line 2, column 3 (at): at 2999-01-01T00:00:00.000Z is in the future (the history records prices that took effect); nothing was imported\n");
    expect(await refused("unknown.csv", "name,price\nSoy,470\nBarley,214\n")).toBe(
      "line 3: Ingredient not found: Barley (a price file changes prices; add new ingredients with feedbase import ingredients); nothing was imported\n",
    );
    expect(await refused("twice.csv", "name,price\nSoy,470\nSoy,471\n")).toBe("line 3: Soy is already on line 2; nothing was imported\n");
    expect(await refused("bad.csv", "name,price\nSoy,cheap\n")).toMatch(/^line 2, column 2 \(price\): .+; nothing was imported\n$/);
    expect(await refused("stock.csv", "name,price,inStock\nSoy,470,maybe\n")).toBe("line 2, column 3 (inStock): inStock must be true, false, yes, no, 1 or 0; nothing was imported\n");
    expect(await refused("cols.csv", "name,cost\nSoy,470\n")).toBe("line 1, column 2 (cost): unknown column; a price file has the columns name,price and optionally inStock,at; nothing was imported\n");
    expect(await refused("date.csv", "name,price,at\nSoy,470,2026-02-30\n")).toMatch(/^line 2, column 3 \(at\): at must be an ISO 8601 date-time/);
    expect((await ingredient(data, "Soy"))!.price).toBe(455);
    expect((await history(data, "Soy")).length).toBe(1);
  });
});
