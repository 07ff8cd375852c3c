import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { checkConstraints, computeFormula } from "../src/domain/formula-math.ts";
import { locationName } from "../cli/location.ts";
import { cli, tempDir } from "./helpers/harness.ts";
import { DEMO_FORMULAS, DEMO_INGREDIENTS } from "./helpers/demo.ts";
import { dataLocation } from "./helpers/postgres.ts";
import { dataExists, readStore, storedBytes } from "./helpers/store.ts";

// CLI subprocesses: on a loaded 2-core machine they need headroom.
setDefaultTimeout(60_000);

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe("feedbase demo", () => {
  const data = tmp.dataPath;
  let stdout = "";

  test("creates the data file and fills the default workspace", async () => {
    expect(dataExists(data)).toBe(false);
    const r = await cli(["demo", "--data", data]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    stdout = r.stdout;
    // First the command that serves what was made (before: only curl lines for a server nobody had started).
    const location = dataLocation(data);
    const [serve, blank, ...rest] = stdout.split("\n");
    expect([serve, blank]).toEqual([location.kind === "sqlite" ? `feedbase serve --data ${data} --port 8080` : `feedbase serve --database "$FEEDBASE_DATABASE_URL" --port 8080`, ""]);
    expect(rest.join("\n")).toStartWith(`Demo workspace "default" created in ${locationName(location)}: ${DEMO_INGREDIENTS} ingredients, ${DEMO_FORMULAS} formulas.\n`);
    expect(dataExists(data)).toBe(true);
  });

  test("every formula, recomputed from the ingredient data in the data file at the prices of its day, sums to 100 and meets all its constraints", async () => {
    const { ingredients, formulas, pricesOfItsDay } = await readStore(data, async (store) => {
      const formulas = await store.listFormulaDetails(1);
      // Each row's price in effect when its formula was saved, as the cost route reads it.
      const pricesOfItsDay = new Map<string, Map<string, number>>();
      for (const f of formulas) pricesOfItsDay.set(f.id, new Map((await store.formulaCost(1, f.id, f.createdAt, f.createdAt)).ingredients.map((row) => [row.name, row.price])));
      return { ingredients: await store.listIngredientDetails(1), formulas, pricesOfItsDay };
    });

    expect(ingredients.length).toBe(DEMO_INGREDIENTS);
    expect(ingredients.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ingredients.map((i) => i.category))).toEqual(
      new Set(["Cereals", "Cereal by-products", "Protein meals", "Animal proteins", "Fats and oils", "Minerals", "Amino acids", "Additives"]),
    );
    expect(formulas.length).toBe(DEMO_FORMULAS);
    expect(formulas.length).toBeGreaterThanOrEqual(8);
    for (const species of ["Poultry", "Swine", "Dairy"]) expect(formulas.map((f) => f.species)).toContain(species);

    const byName = new Map(ingredients.map((i) => [i.name, i]));
    for (const f of formulas) {
      const sum = f.ingredients.reduce((acc, row) => acc + row.percent, 0);
      expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.01 + 1e-9);
      const recomputed = computeFormula({
        batchSize: f.batchSize,
        ingredients: f.ingredients.map((row) => {
          const ingredient = byName.get(row.name);
          if (!ingredient) throw new Error(`${f.id}: ${row.name} is not in the data file`);
          return { name: row.name, percent: row.percent, price: pricesOfItsDay.get(f.id)!.get(row.name)!, nutrients: ingredient.nutrients };
        }),
      });
      // What the API serves is exactly what the ingredient data and its price history give.
      expect(f.ingredients).toEqual(recomputed.ingredients);
      expect(f.nutrients).toEqual(recomputed.nutrients);
      expect(f.totalCost).toBe(recomputed.totalCost);
      expect(f.constraints.nutrients.length).toBeGreaterThan(0);
      expect({ id: f.id, violations: checkConstraints({ ...f, nutrients: recomputed.nutrients }) }).toEqual({ id: f.id, violations: [] });
    }
  });

  test("every ingredient has weekly demo prices, each week different from the next, the newest its current price and stock", async () => {
    const histories = await readStore(data, async (store) => {
      const all = [];
      for (const ingredient of await store.listIngredientDetails(1)) all.push({ ingredient, history: (await store.priceHistory(1, ingredient.name)).history });
      return all;
    });
    expect(histories).toHaveLength(DEMO_INGREDIENTS);
    const oldestFormula = Math.min(...(await readStore(data, (store) => store.listFormulaDetails(1))).map((f) => Date.parse(f.createdAt)));
    for (const { ingredient, history } of histories) {
      // At least 400 days, and back before the oldest formula was made (before: 20 weeks, months after them).
      const oldest = Date.parse(history.at(-1)!.at);
      expect({ name: ingredient.name, days: (Date.parse(history[0]!.at) - oldest) / (24 * 3600 * 1000) >= 400, beforeFormulas: oldest < oldestFormula }).toEqual({ name: ingredient.name, days: true, beforeFormulas: true });
      expect(history[0]).toMatchObject({ price: ingredient.price, inStock: ingredient.inStock, at: ingredient.updatedAt, source: "demo" });
      for (let i = 1; i < history.length; i++) {
        const [newer, older] = [history[i - 1]!, history[i]!];
        expect(Date.parse(newer.at) - Date.parse(older.at)).toBe(7 * 24 * 3600 * 1000);
        expect(older.source).toBe("demo");
        expect(older.price !== newer.price || older.inStock !== newer.inStock).toBe(true);
        // Plausible: a week moves a price by a few percent, never by a tenth.
        expect(Math.abs(older.price - newer.price) / newer.price).toBeLessThan(0.1);
      }
    }
  });

  test("every nutrient key the demo's ingredients use is defined with a unit and a basis, as fed as the values are (issue 27, point 9)", async () => {
    const [listing, ingredients] = await readStore(data, async (store) => [await store.listNutrients(1), await store.listIngredientDetails(1)] as const);
    const used = new Set(ingredients.flatMap((i) => Object.keys(i.nutrients)));
    const byKey = new Map(listing.map((n) => [n.key, n]));
    for (const key of used) expect({ key, defined: byKey.get(key) }).toEqual({ key, defined: { key, name: expect.any(String), unit: expect.any(String), basis: "as-fed" } });
    // The ruminant keys are written as fed (maize NEL 1.78 Mcal/kg at 88 % DM); RUP is in % of the feed, not of CP.
    expect(byKey.get("NEL")).toMatchObject({ unit: "Mcal/kg", basis: "as-fed" });
    expect(byKey.get("RUP")!.name).toContain("% of the feed");
  });

  test("prints a read key, a write key and curl lines; only the keys' hashes are stored", async () => {
    const read = /^Read key: +(fbk_\w{40}) +\((key_\w+), read-only\)$/m.exec(stdout);
    const write = /^Write key: +(fbk_\w{40}) +\((key_\w+), read and write\)$/m.exec(stdout);
    expect(read).not.toBeNull();
    expect(write).not.toBeNull();
    expect(stdout).toContain(`curl -s -H 'X-API-Key: ${read![1]}' http://127.0.0.1:8080/v1/formulas\n`);
    const keys = await readStore(data, (store) => store.listKeys());
    expect(keys.map((k) => [k.id, k.write])).toEqual(expect.arrayContaining([[read![2], false], [write![2], true]]));
    // Exploring (and the console) must not hit the default 100 an hour: the demo keys allow 10,000.
    expect(keys.map((k) => k.rateLimit)).toEqual([10_000, 10_000]);
    const stored = storedBytes(data);
    expect(stored.includes(read![1]!)).toBe(false);
    expect(stored.includes(write![1]!)).toBe(false);
  });

  test("refuses a workspace that already holds ingredients, changing nothing", async () => {
    const r = await cli(["demo", "--data", data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: Workspace default already holds ${DEMO_INGREDIENTS} ingredients: the demo only fills an empty workspace (pass --data with a new file)\n`);
    expect(r.stdout).toBe("");
    await readStore(data, async (store) => {
      expect(await store.listKeys()).toHaveLength(2);
      expect(await store.listIngredientDetails(1)).toHaveLength(DEMO_INGREDIENTS);
      expect(await store.listFormulaDetails(1)).toHaveLength(DEMO_FORMULAS);
    });
  });
});
