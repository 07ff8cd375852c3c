/** `feedbase formula frontier` (a file, or a database in PostgreSQL mode): the table, the chart, --json, refusals. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { frontierTask } from "../src/optimize/frontier-task.ts";
import { candidatesOf, NO_OPTIONS } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { cli, tempDir } from "./helpers/harness.ts";
import { openTestStore, readStore } from "./helpers/store.ts";

setDefaultTimeout(60_000);
const tmp = tempDir();
const data = tmp.dataPath;
const fb = (...args: string[]) => cli([...args, "--data", data]);

beforeAll(async () => {
  const store = await openTestStore(data, { create: true });
  const ingredients = [
    { name: "Maize", category: "Cereals", price: 228, co2e: 0.4, nutrients: { CP: 8 } },
    { name: "Wheat", category: "Cereals", price: 240, co2e: 0.55, nutrients: { CP: 12 } },
    { name: "Soybean meal 48% BR", category: "Protein meals", price: 430, co2e: 4.5, nutrients: { CP: 46 } },
    { name: "Soybean meal 48% US", category: "Protein meals", price: 470, co2e: 0.55, nutrients: { CP: 47 } },
    { name: "Premix", category: "Additives", price: 2000, nutrients: {} },
  ];
  await store.importIngredients(1, JSON.stringify(ingredients), "json", { update: false, now: "2026-11-23T08:00:00.000Z" });
  await store.importFormulas(1, readFormulaFile(JSON.stringify([
    { id: "starter", name: "Starter", species: "Poultry", subcategory: "Test", batchSize: 1000,
      ingredients: [{ name: "Maize", percent: 68.4211 }, { name: "Soybean meal 48% BR", percent: 31.5789 }],
      constraints: { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [{ name: "Soybean meal 48% US", min: 0, max: null }, { name: "Wheat", min: 0, max: 30 }] } },
    { id: "premix", name: "Premix", species: "Poultry", subcategory: "Test", batchSize: 1000,
      ingredients: [{ name: "Maize", percent: 99.5 }, { name: "Premix", percent: 0.5 }], constraints: { ingredients: [{ name: "Premix", min: 0.5, max: null }] } },
  ])), { replace: false, now: "2026-11-23T09:00:00.000Z" });
  await store.close();
});
afterAll(() => tmp.cleanup());

describe("feedbase formula frontier", () => {
  test("--json prints the API's data: the same frontier as in-process", async () => {
    const r = await fb("formula", "frontier", "starter", "--points", "6", "--json");
    expect(r.code).toBe(0);
    const [formula, ingredients] = await readStore(data, async (s) => [await s.requireFormula(1, "starter"), await s.listIngredientDetails(1)] as const);
    const byName = new Map(ingredients.map((i) => [i.name, i]));
    const candidates = candidatesOf(formula, (n) => byName.get(n) ?? null, NO_OPTIONS);
    const expected = frontierTask(await solverRuntime(), { id: "starter", name: "Starter", candidates, constraints: formula.constraints, points: 6 });
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  test("the report: the ends, a table with the cost of each tonne avoided, the compositions, and a chart of cost against CO2e", async () => {
    const json = JSON.parse((await fb("formula", "frontier", "starter", "--points", "6", "--json")).stdout);
    const r = await fb("formula", "frontier", "starter", "--points", "6");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const [first, last] = [json.points[0], json.points.at(-1)];
    expect(lines[0]).toBe(`starter: Starter: from the least-cost mix (${first.co2ePerTon.toFixed(1)} kg CO2e/t, ${first.costPerTon.toFixed(2)}/t) to the least-CO2e mix (${last.co2ePerTon.toFixed(1)} kg CO2e/t, ${last.costPerTon.toFixed(2)}/t), 6 points.`);
    expect(lines[3]).toMatch(/^POINT\s+KG CO2E\/T\s+COST\/T\s+COST\/T CO2E AVOIDED$/);
    expect(lines[4]).toMatch(new RegExp(`^1\\s+${first.co2ePerTon.toFixed(1)}\\s+${first.costPerTon.toFixed(2)}\\s+${json.abatement[0].costPerTonneCo2e.toFixed(2)}$`));
    expect(lines).toContain("Composition (%):");
    expect(lines.find((l) => l.startsWith("Soybean meal 48% US "))).toMatch(/^Soybean meal 48% US\s+0\.00\s+/);
    // The chart: the cost axis labelled with its ends, one * per point, the footprint axis with its ends and unit.
    const chart = lines.slice(lines.indexOf("cost/t".padStart(first.costPerTon.toFixed(2).length)));
    expect(chart[1]).toStartWith(`${last.costPerTon.toFixed(2)} ┤*`);
    expect(chart.some((l) => l.startsWith(`${first.costPerTon.toFixed(2)} ┤`) && l.endsWith("*"))).toBe(true);
    expect(chart.join("").split("*").length - 1).toBe(6);
    expect(chart.find((l) => l.includes("kg CO2e per tonne of feed"))!.trim()).toMatch(new RegExp(`^${last.co2ePerTon.toFixed(1)}\\s+kg CO2e per tonne of feed\\s+${first.co2ePerTon.toFixed(1)}$`));
  });

  test("held-out candidates are named; an infeasible frontier names what to relax", async () => {
    const r = await fb("formula", "frontier", "premix");
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("Held at 0 (co2e unknown): Premix\npremix: Premix: no mix of the candidates of known footprint meets every limit.\n");
    expect(r.stdout).toMatch(/Premix \(inclusion %\)\s+min\s+0\.5\s+0/);
  });

  test("--points must be 2..51; an unknown --include is refused", async () => {
    for (const bad of ["1", "52", "x"]) {
      const r = await fb("formula", "frontier", "starter", "--points", bad);
      expect({ bad, code: r.code, err: r.stderr.split("\n")[0] }).toEqual({ bad, code: 2, err: "error: option '--points <n>' argument '" + bad + "' is invalid. --points must be a whole number from 2 to 51" });
    }
    const r = await fb("formula", "frontier", "starter", "--include", "Nope");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: Unknown ingredient: Nope\n");
    expect((await fb("formula", "frontier", "--help")).stdout).toContain("feedbase formula frontier broiler-starter");
  });
});

describe("feedbase formula optimize --max-co2e", () => {
  test("the report gives both footprints and what the binding cap costs; --json is the API's data", async () => {
    const r = await fb("formula", "optimize", "starter", "--max-co2e", "1000", "--include", "Premix");
    expect(r.code).toBe(0);
    const json = JSON.parse((await fb("formula", "optimize", "starter", "--max-co2e", "1000", "--include", "Premix", "--json")).stdout);
    const cap = json.shadowPrices.co2e;
    expect(r.stdout).toContain(`Footprint ${json.current.co2ePerTon.toFixed(1)} → ${json.optimized.co2ePerTon.toFixed(1)} kg CO2e per tonne of feed\n`);
    expect(r.stdout).toContain(
      `The CO2e cap of 1000 kg per tonne of feed binds: 1 kg per tonne more allowed changes the cost per tonne by ${cap.shadowPrice.toFixed(6)}; each tonne of CO2e abated at this cap costs ${cap.perTonneCo2e.toFixed(2)}.\n`,
    );
    expect(r.stdout).toMatch(/Premix\s+2000\.00\s+- \(co2e unknown: held at 0\)/);
  });

  test("a cap below the least-CO2e mix: infeasible, the cap among the repairs; a bad value is a usage error", async () => {
    const r = await fb("formula", "optimize", "starter", "--max-co2e", "100");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/CO2e \(kg per tonne\)\s+max\s+100\s+446\.1539/);
    const bad = await fb("formula", "optimize", "starter", "--max-co2e", "lots");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--maxCo2e must be a number from -1000000 to 1000000 (kg CO2e per tonne of feed)");
  });
});

describe("co2e in ingredient files", () => {
  const file = (name: string, text: string) => {
    const path = `${tmp.dir}/${name}`;
    writeFileSync(path, text);
    return path;
  };
  const detail = (name: string) => readStore(data, (s) => s.findIngredient(1, name));

  test("a co2e column anywhere after the fixed ones (an empty cell is unknown); a bad value names its line and column", async () => {
    const ok = await fb("import", "ingredients", file("co2e.csv", "name,category,price,inStock,CP,co2e\nBarley,Cereals,210,true,10.5,0.38\nRye,Cereals,200,true,9,\n"));
    expect(ok.code).toBe(0);
    expect(await detail("Barley")).toMatchObject({ co2e: 0.38, nutrients: { CP: 10.5 } });
    expect(await detail("Rye")).toMatchObject({ co2e: null, nutrients: { CP: 9 } });
    const bad = await fb("import", "ingredients", file("bad.csv", "name,category,price,inStock,co2e\nOats,Cereals,190,true,2000\n"));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`error: ${tmp.dir}/bad.csv: line 2, column 5 (co2e): co2e must be a number <= 1000; nothing was imported\n`);
  });

  test("--update: a file without the co2e column keeps the stored footprints, an empty cell clears one", async () => {
    expect((await fb("import", "ingredients", "--update", file("keep.csv", "name,category,price,inStock,CP\nBarley,Cereals,215,true,10.5\n"))).code).toBe(0);
    expect(await detail("Barley")).toMatchObject({ price: 215, co2e: 0.38 });
    expect((await fb("import", "ingredients", "--update", file("clear.csv", "name,category,price,inStock,co2e,CP\nBarley,Cereals,215,true,,10.5\n"))).code).toBe(0);
    expect((await detail("Barley"))!.co2e).toBeNull();
  });

  test("export writes the column, and a JSON file without co2e keeps it on --update", async () => {
    const csv = await fb("export", "ingredients", "--format", "csv");
    expect(csv.stdout.split("\n")[0]).toBe("name,category,price,inStock,co2e,CP");
    expect(csv.stdout).toContain("\nMaize,Cereals,228,true,0.4,8\n");
    const json = JSON.stringify([{ name: "Maize", category: "Cereals", price: 229, nutrients: { CP: 8 } }]);
    expect((await fb("import", "ingredients", "--update", file("maize.json", json))).code).toBe(0);
    expect(await detail("Maize")).toMatchObject({ price: 229, co2e: 0.4 });
  });
});
