import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkConstraints, computeFormula } from "../src/domain/formula-math.ts";
import { openDatabase } from "../src/store/db.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { listIngredientDetails } from "../src/store/ingredients.ts";
import { priceHistory, pricesInEffect } from "../src/store/price-history.ts";
import { listKeys } from "../src/store/keys.ts";
import { cli, ROOT, spawnServe, tempDir } from "./helpers/harness.ts";

// CLI subprocesses and a serve process: on a loaded 2-core machine they need headroom.
setDefaultTimeout(60_000);

const tmp = tempDir();
afterAll(() => tmp.cleanup());

// What the project's demo files hold (test/demo-data.test.ts checks the files themselves).
const DEMO = join(ROOT, "src", "demo");
const DEMO_INGREDIENTS = readFileSync(join(DEMO, "ingredients.csv"), "utf8").trim().split("\n").length - 1;
const DEMO_FORMULAS = (JSON.parse(readFileSync(join(DEMO, "formulas.json"), "utf8")) as unknown[]).length;

describe("feedbase demo", () => {
  const data = join(tmp.dir, "demo.db");
  let stdout = "";

  test("creates the data file and fills the default workspace", async () => {
    expect(existsSync(data)).toBe(false);
    const r = await cli(["demo", "--data", data]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    stdout = r.stdout;
    expect(stdout).toStartWith(`Demo workspace "default" created in ${data}: ${DEMO_INGREDIENTS} ingredients, ${DEMO_FORMULAS} formulas.\n`);
    expect(existsSync(data)).toBe(true);
  });

  test("every formula, recomputed from the ingredient data in the data file at the prices of its day, sums to 100 and meets all its constraints", () => {
    const db = openDatabase(data, { create: false });
    const ingredients = listIngredientDetails(db, 1);
    const formulas = listFormulaDetails(db, 1);
    const pricesOfItsDay = new Map(formulas.map((f) => [f.id, pricesInEffect(db, 1, f.createdAt)]));
    db.close();

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

  test("every ingredient has weekly demo prices, each week different from the next, the newest its current price and stock", () => {
    const db = openDatabase(data, { create: false });
    for (const ingredient of listIngredientDetails(db, 1)) {
      const { history } = priceHistory(db, 1, ingredient.name);
      expect(history.length).toBeGreaterThanOrEqual(13);
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
    db.close();
  });

  test("prints a read key, a write key and curl lines; only the keys' hashes are stored", () => {
    const read = /^Read key: +(fbk_\w{40}) +\((key_\w+), read-only\)$/m.exec(stdout);
    const write = /^Write key: +(fbk_\w{40}) +\((key_\w+), read and write\)$/m.exec(stdout);
    expect(read).not.toBeNull();
    expect(write).not.toBeNull();
    expect(stdout).toContain(`curl -s -H 'X-API-Key: ${read![1]}' http://127.0.0.1:8080/v1/formulas\n`);
    const db = openDatabase(data, { create: false });
    const keys = listKeys(db);
    db.close();
    expect(keys.map((k) => [k.id, k.write])).toEqual(expect.arrayContaining([[read![2], false], [write![2], true]]));
    const file = readFileSync(data);
    expect(file.includes(read![1]!)).toBe(false);
    expect(file.includes(write![1]!)).toBe(false);
  });

  test("refuses a workspace that already holds ingredients, changing nothing", async () => {
    const r = await cli(["demo", "--data", data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: Workspace default already holds ${DEMO_INGREDIENTS} ingredients: the demo only fills an empty workspace (pass --data with a new file)\n`);
    expect(r.stdout).toBe("");
    const db = openDatabase(data, { create: false });
    expect(listKeys(db)).toHaveLength(2);
    expect(listIngredientDetails(db, 1)).toHaveLength(DEMO_INGREDIENTS);
    expect(listFormulaDetails(db, 1)).toHaveLength(DEMO_FORMULAS);
    db.close();
  });
});

describe("make run on a new data file", () => {
  test("the Makefile's demo then serve; the printed curl lines work against the server", async () => {
    const data = join(tmp.dir, "run", "feedbase.db");
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    await probe.stop(true);

    // The commands `make run` runs, read from the Makefile itself (make -n prints without running).
    const recipe = Bun.spawnSync(["make", "-n", "run", `DATA=${data}`, `PORT=${port}`], { cwd: ROOT }).stdout.toString();
    const demoArgs = new RegExp(`\\bdist/feedbase (demo --data ${data} --port ${port});`).exec(recipe)?.[1];
    const serveArgs = new RegExp(`exec dist/feedbase (serve --data ${data} --port ${port})$`, "m").exec(recipe)?.[1];
    expect(demoArgs).toBeDefined();
    expect(serveArgs).toBeDefined();

    mkdirSync(join(tmp.dir, "run")); // the recipe's `mkdir -p $(dir $(DATA))`
    const demo = await cli(demoArgs!.split(" "));
    expect(demo.code).toBe(0);
    const server = await spawnServe(data, { args: serveArgs!.split(" ").slice(1) });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      const lines = demo.stdout.split("\n").filter((l) => l.trim().startsWith("curl "));
      expect(lines.length).toBeGreaterThanOrEqual(8);
      const results = new Map<string, { status: number; body: { count?: number; data: unknown } }>();
      for (const line of lines) {
        const key = /X-API-Key: (fbk_\w+)/.exec(line)![1]!;
        const url = /'?(http:\/\/127\.0\.0\.1:\d+\/v1\/[^' ]+)'?$/.exec(line)![1]!;
        const method = /-X (\w+)/.exec(line)?.[1] ?? "GET";
        const body = /-d '([^']+)'/.exec(line)?.[1];
        const res = await fetch(url, { method, headers: { "X-API-Key": key }, ...(body ? { body } : {}) });
        results.set(`${method} ${new URL(url).pathname}`, { status: res.status, body: await res.json() });
      }
      for (const [request, { status }] of results) expect({ request, status }).toEqual({ request, status: 200 });
      expect(results.get("GET /v1/ingredients")!.body.count).toBe(DEMO_INGREDIENTS);
      expect(results.get("GET /v1/formulas")!.body.count).toBe(DEMO_FORMULAS);
      expect(results.get("GET /v1/formulas/broiler-starter")!.body.data).toMatchObject({ id: "broiler-starter", species: "Poultry" });
      expect(results.get("PUT /v1/prices/Soybean%20meal%2048%25")!.body.data).toMatchObject({ name: "Soybean meal 48%" });
      // A few months of weekly demo prices, the newest today's; costs and the report have moved.
      const history = (results.get("GET /v1/prices/Soybean%20meal%2048%25")!.body.data as { price: number; history: { price: number; at: string; source: string }[] });
      expect(history.history.length).toBeGreaterThanOrEqual(13);
      expect(new Set(history.history.map((e) => e.source))).toEqual(new Set(["demo"]));
      const weeks = (Date.parse(history.history[0]!.at) - Date.parse(history.history.at(-1)!.at)) / (7 * 24 * 3600 * 1000);
      expect(weeks).toBeGreaterThanOrEqual(12);
      expect(results.get("GET /v1/formulas/broiler-starter/cost")!.body.data).toMatchObject({ id: "broiler-starter" });
      expect(results.get("GET /v1/reports/cost-changes")!.body.count).toBeGreaterThan(0);
      // The README's history and cost examples work against the demo as printed.
      const readKey = /X-API-Key: (fbk_\w+)/.exec(lines[0]!)![1]!;
      const readme = readFileSync(join(ROOT, "README.md"), "utf8");
      const examples = [...readme.matchAll(/^curl -s "?\$FEEDBASE(\/v1\/(?:prices|formulas\/[^/ "]+\/cost|reports\/cost-changes)[^" ]*)"? -H "X-API-Key: \$KEY"$/gm)].map((m) => m[1]!);
      expect(examples.length).toBeGreaterThanOrEqual(7);
      for (const path of examples) {
        const res = await fetch(server.url + path, { headers: { "X-API-Key": readKey } });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("make run and the admin commands", () => {
  test("serve the file the admin commands read by default, and print them with its --data", async () => {
    const defaultRecipe = Bun.spawnSync(["make", "-n", "run"], { cwd: ROOT }).stdout.toString();
    const served = /exec dist\/feedbase serve --data (\S+)/.exec(defaultRecipe)?.[1];
    const help = await cli(["key", "list", "--help"]);
    const cliDefault = /--data <file>.*\(default: "([^"]+)"/.exec(help.stdout)?.[1];
    expect(served).toBeDefined();
    expect(cliDefault).toBeDefined();
    expect(join(ROOT, served!)).toBe(join(ROOT, cliDefault!));

    const data = join(tmp.dir, "admin", "feedbase.db");
    const recipe = Bun.spawnSync(["make", "-n", "run", `DATA=${data}`], { cwd: ROOT }).stdout.toString();
    const printed = [...recipe.matchAll(/^echo " {2}dist\/feedbase (.+)"$/gm)].map((m) => m[1]!);
    expect(printed.map((p) => p.split(" --data ")[0])).toEqual(["key create --write", "key list", "webhook add http://127.0.0.1:9090/", "webhook deliveries"]);
    mkdirSync(join(tmp.dir, "admin"));
    expect((await cli(["demo", "--data", data])).code).toBe(0);
    // Each printed command, run as printed, works on the served file.
    for (const line of printed) {
      const r = await cli(line.split(" "));
      expect({ line, code: r.code, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
    }
  });
});
