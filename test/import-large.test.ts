/**
 * A 50,000-row CSV import through the CLI while the server answers reads from the same data file:
 * validation happens before the write transaction and reads never wait on a WAL writer. The import's
 * duration is a benchmark figure, not asserted here.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";

const ROWS = 50_000;
const KEYS = ["CF", "CP", "Ca", "Cl", "DM", "EE", "Lys", "ME_poultry", "ME_swine", "Met", "MetCys", "Na", "Thr", "Trp", "avP"];
const POOLS = ["Cereals", "Cereal by-products", "Protein meals", "Animal proteins", "Fats and oils", "Minerals", "Amino acids", "Additives"];

// Several CLI subprocesses per test: on a loaded 2-core machine each can take a second.
setDefaultTimeout(60_000);

const tmp = tempDir();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
  tmp.cleanup();
});

const name = (i: number) => `Ingredient ${String(i).padStart(5, "0")}`;

/** Row i's nutrients: about one key in seven is missing (an empty cell). */
const nutrientsOf = (i: number): Record<string, number> =>
  Object.fromEntries(KEYS.flatMap((key, k) => ((i + k) % 7 === 0 ? [] : [[key, ((i * 31 + k * 17) % 10_000) / 100]])));

function bigCsv(): string {
  const lines = [["name", "category", "price", "inStock", ...KEYS].join(",")];
  for (let i = 1; i <= ROWS; i++) {
    const nutrients = nutrientsOf(i);
    const values = KEYS.map((key) => (key in nutrients ? String(nutrients[key]) : ""));
    lines.push([name(i), POOLS[i % POOLS.length], String(100 + (i % 900)), i % 11 === 0 ? "no" : "yes", ...values].join(","));
  }
  return lines.join("\n") + "\n";
}

test("50,000 rows import with a progress line while the server keeps answering", async () => {
  const path = join(tmp.dir, "big.csv");
  writeFileSync(path, bigCsv());
  const key = t.key();
  const last = `/v1/ingredients/${encodeURIComponent(name(ROWS))}`;

  let done = false;
  const importing = cli(["import", "ingredients", path, "--data", t.dataPath], { subprocess: true }).finally(() => (done = true));
  const answers: number[] = [];
  while (!done) {
    // Before the commit the last row is not there (404), after it is (200); never an error or a hang.
    answers.push((await t.request("GET", last, { key })).status, (await t.request("GET", "/v1/formulas", { key })).status);
    await Bun.sleep(20);
  }
  const r = await importing;

  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`Imported 50000 ingredients into workspace default (50000 new, 0 updated)\n`);
  expect(r.stderr).toBe(
    [10_000, 20_000, 30_000, 40_000, 50_000].map((n) => `progress: checked ${n.toLocaleString("en-US")} of 50,000 rows\n`).join(""),
  );
  // The server answered while the import ran, and only with what the data said at that moment.
  expect(answers.length).toBeGreaterThan(2);
  expect(new Set(answers)).toEqual(new Set(answers.filter((s) => s === 200 || s === 404)));

  const list = await (await t.request("GET", "/v1/ingredients?category=Minerals", { key })).json();
  expect(list.count).toBe(ROWS / POOLS.length);
  const detail = await (await t.request("GET", last, { key })).json();
  expect(detail.data).toMatchObject({ name: name(ROWS), category: POOLS[ROWS % POOLS.length], price: 100 + (ROWS % 900), inStock: true });
  expect(detail.data.nutrients).toEqual(nutrientsOf(ROWS));
  expect(Object.keys(detail.data.nutrients).length).toBeLessThan(KEYS.length);
});
