/**
 * The demo's lab analyses (issue 33), on whichever backend the suite runs: every ingredient of the
 * demo's spread table has at least 3 analyses sampled within the 365 days before the demo's day, their
 * CP spread as lots really are (soybean meal about 1.4 %, maize about 0.6 %), and the optimizer's read
 * gives each of them a nonzero sd; the same day gives the same analyses. Before this issue the demo had none.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { DEMO_SPREADS, demoAnalyses } from "../src/demo/analyses.ts";
import { tempDir } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

const NOW = "2026-11-23T08:00:00.000Z";
const YEAR_BEFORE = new Date(Date.parse(NOW) - 365 * 86_400_000).toISOString();
const tmp = tempDir();
let store: AdminStore;

beforeAll(async () => {
  store = await openTestStore(tmp.dataPath, { create: true });
  await store.seedDemo(NOW);
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

describe("the demo's analyses", () => {
  test("each ingredient of the table is a demo ingredient with at least 3 analyses in the year before the demo's day, around its book value", async () => {
    for (const [name, spreads] of Object.entries(DEMO_SPREADS)) {
      const found = await store.listAnalyses(1, name, { from: YEAR_BEFORE, to: NOW });
      expect({ name, enough: found.analyses.length >= 3 }).toEqual({ name, enough: true });
      for (const [key, sd] of Object.entries(spreads)) {
        const stats = found.stats[key]!;
        // Book value and analyses agree to within the rounding of a lab's figures; the spread is the table's.
        expect({ name, key, n: stats.n }).toEqual({ name, key, n: found.analyses.length });
        expect(Math.abs(stats.mean - stats.book!)).toBeLessThan(0.01 * Math.max(1, Math.abs(stats.book!)));
        expect(Math.abs(stats.sd! - sd) / sd).toBeLessThan(0.05);
      }
    }
  });

  test("soybean meal CP sd about 1.4 %, maize about 0.6 %, and the optimizer reads an sd for every main ingredient", async () => {
    const sds = await store.variability(1, Object.keys(DEMO_SPREADS), YEAR_BEFORE, NOW);
    expect(sds["Soybean meal 48%"]!.CP).toBeCloseTo(1.4, 1);
    expect(sds.Maize!.CP).toBeCloseTo(0.6, 1);
    for (const [name, spreads] of Object.entries(DEMO_SPREADS)) expect({ name, keys: Object.keys(sds[name]!).sort() }).toEqual({ name, keys: Object.keys(spreads).sort() });
  });

  test("the same day gives the same analyses", async () => {
    const books = new Map((await store.listIngredientDetails(1)).map((i) => [i.name, i.nutrients]));
    expect(demoAnalyses(books, NOW)).toEqual(demoAnalyses(books, NOW));
    const listed = await store.listAnalyses(1, "Maize");
    const made = demoAnalyses(books, NOW).filter((r) => r.name === "Maize").map((r) => r.input.nutrients);
    expect(listed.analyses.map((a) => a.nutrients).reverse()).toEqual(made);
  });
});
