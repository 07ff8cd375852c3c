/**
 * `feedbase import prices` of 10,000 price changes (the weekly purchasing file of a large mill), and
 * `feedbase import ingredients` of 50,000 new rows, with and without the events imports fire:
 * `--no-events` (the baseline), events with no webhook, events with a webhook that takes every event
 * type (a delivery row per event), and, for the prices, `formula.cost_changed` recosting the 200
 * formulas of bench/dataset.ts. Each scenario on a fresh copy of the same data file, median of
 * `RUNS`, process start included; the ratios are to `--no-events` in the same run.
 * Run: bun bench/import-prices.ts   (FEEDBASE_EXE: the executable, default dist/feedbase)
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateFormulas, generateIngredients, ingredientsCsv, SEED } from "./dataset.ts";
import { openDatabase } from "../src/store/db.ts";

const EXE = process.env.FEEDBASE_EXE ?? join(import.meta.dir, "..", "dist", "feedbase");
const RUNS = Number(process.env.RUNS ?? 3);
const INGREDIENTS = 10_000;
const IMPORT_ROWS = 50_000;

async function run(args: string[]): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn([EXE, ...args], { stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`${args.join(" ")}: exit ${code}: ${err}`);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), "feedbase-bench-import-"));
try {
  const ingredients = generateIngredients(INGREDIENTS, SEED);
  const base = join(dir, "base.db");
  openDatabase(base, { create: true }).close();
  writeFileSync(join(dir, "i.csv"), ingredientsCsv(ingredients));
  await run(["import", "ingredients", join(dir, "i.csv"), "--no-events", "--data", base]);
  writeFileSync(join(dir, "f.json"), JSON.stringify(generateFormulas(ingredients, 200, 12, SEED + 1)));
  await run(["import", "formulas", join(dir, "f.json"), "--no-events", "--data", base]);
  // Every price moves by 1 %: 10,000 changes, each a history entry and (with events) a price.updated.
  writeFileSync(join(dir, "p.csv"), "name,price\n" + ingredients.map((i) => `"${i.name.replaceAll('"', '""')}",${Math.round(i.price * 101) / 100 + 0.01}`).join("\n") + "\n");
  const fresh = () => {
    const copy = join(dir, `run-${Math.random().toString(36).slice(2)}.db`);
    copyFileSync(base, copy);
    return copy;
  };
  const webhook = async (data: string, events: string) => run(["webhook", "add", "http://127.0.0.1:9/", "--events", events, "--data", data]);
  const scenarios: [string, (data: string) => Promise<void>, string[]][] = [
    ["--no-events", async () => {}, ["--no-events"]],
    ["events, no webhook", async () => {}, []],
    ["events, a webhook of price.updated", async (d) => void (await webhook(d, "price.updated")), []],
    ["events, a webhook of price.updated and formula.cost_changed (200 formulas recosted)", async (d) => void (await webhook(d, "price.updated,formula.cost_changed")), []],
  ];
  const results: [string, number][] = [];
  for (const [name, setup, flags] of scenarios) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const data = fresh();
      await setup(data);
      times.push(await run(["import", "prices", join(dir, "p.csv"), ...flags, "--data", data]));
    }
    results.push([name, median(times)]);
  }
  const base0 = results[0]![1];
  console.log(`import prices, ${INGREDIENTS.toLocaleString("en-US")} price changes, median of ${RUNS}:`);
  for (const [name, ms] of results) console.log(`  ${name}: ${(ms / 1000).toFixed(2)} s (${(ms / base0).toFixed(2)} × --no-events)`);

  writeFileSync(join(dir, "big.csv"), ingredientsCsv(generateIngredients(IMPORT_ROWS, SEED + 2)));
  const loads: [string, number][] = [];
  for (const [name, flags] of [["--no-events", ["--no-events"]], ["events, no webhook", []]] as const) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const data = join(dir, `load-${i}-${flags.length}.db`);
      openDatabase(data, { create: true }).close();
      times.push(await run(["import", "ingredients", join(dir, "big.csv"), ...flags, "--data", data]));
    }
    loads.push([name, median(times)]);
  }
  console.log(`import ingredients, ${IMPORT_ROWS.toLocaleString("en-US")} new rows into an empty file, median of ${RUNS}:`);
  for (const [name, ms] of loads) console.log(`  ${name}: ${(ms / 1000).toFixed(2)} s (${(ms / loads[0]![1]).toFixed(2)} × --no-events)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
