/**
 * The analyses' store operations as route handlers get them (the served store's `read` and `write`),
 * on whichever backend the suite runs (make test on SQLite, make test-postgres on PostgreSQL): an
 * analysis is stored and listed newest sampled first (ties: newest created first) with its statistics,
 * deleted by id within its workspace, and goes with its ingredient; `variability` gives the sample sd
 * (n − 1) of each key the ingredient's own values have, over the analyses sampled from `since`
 * (inclusive) to now, only from 3 analyses up.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { AnalysisInput } from "../src/domain/analyses.ts";
import { createLogger } from "../src/log.ts";
import type { Backend } from "../src/store/backend.ts";
import { openStore } from "../src/open/open.ts";
import type { ServedStore } from "../src/open/store.ts";
import type { AdminStore } from "../src/admin/ops.ts";
import { tempDir } from "./helpers/harness.ts";
import { dataLocation } from "./helpers/postgres.ts";

const WS = 1;
const NOW = Date.now();
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();
const actor = (now = new Date().toISOString()) => ({ workspaceId: WS, keyId: null, now });

let opened: { store: ServedStore; dataPath: string; cleanup: () => void } | null = null;
afterEach(async () => {
  if (!opened) return;
  await opened.store.close();
  opened.cleanup();
  opened = null;
});

/** The served store of a fresh database (an SQLite file, or a PostgreSQL database in that mode), with Maize and Soybean meal. */
async function fresh(): Promise<Backend> {
  const tmp = tempDir();
  const serve = { logger: createLogger(() => {}), clock: () => Date.now(), onCommit: () => {}, perWebhook: 4 };
  const store = await openStore(dataLocation(tmp.dataPath), { create: true, serve });
  opened = { store, dataPath: tmp.dataPath, cleanup: tmp.cleanup };
  const { backend } = store;
  await backend.write.createIngredient(actor(), { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: { CP: 8, ME_poultry: 3300, Lys: 0.25 } });
  await backend.write.createIngredient(actor(), { name: "Soybean meal 48%", category: "Protein", price: 420, inStock: true, nutrients: { CP: 47.5, Lys: 2.9 } });
  return backend;
}

const analysis = (nutrients: Record<string, number>, sampledAt: string, lot: string | null = null, lab: string | null = null): AnalysisInput => ({ nutrients, sampledAt, lot, lab });

/** The sample sd of `values`, the textbook way. */
function sd(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.map((v) => (v - mean) ** 2).reduce((a, b) => a + b, 0) / (values.length - 1));
}

/** The commands' store on the same data, closed after `work`. */
async function withAdmin<T>(work: (admin: AdminStore) => Promise<T>): Promise<T> {
  const admin = await openStore(dataLocation(opened!.dataPath), { create: false });
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

describe("analyses in the store", () => {
  test("added, listed newest sampled first (ties: newest created first), with n, mean, sd (n − 1), min, max and book to 4 decimals", async () => {
    const backend = await fresh();
    const a = await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 7.4, DON: 0.9 }, daysAgo(30), "L-1", "NIR"));
    expect(a).toEqual({ id: a.id, name: "Maize", nutrients: { CP: 7.4, DON: 0.9 }, sampledAt: daysAgo(30), lot: "L-1", lab: "NIR", createdAt: a.createdAt });
    expect(a.id).toMatch(/^ana_[0-9A-Za-z]{16}$/);
    const b = await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 8.1 }, daysAgo(10)));
    const c = await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 8.6 }, daysAgo(10)));
    const listed = await backend.read.listAnalyses(WS, "Maize");
    expect(listed.name).toBe("Maize");
    expect(listed.analyses.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(listed.stats).toEqual({
      CP: { n: 3, mean: 8.0333, sd: Number(sd([7.4, 8.1, 8.6]).toFixed(4)), min: 7.4, max: 8.6, book: 8 },
      DON: { n: 1, mean: 0.9, sd: null, min: 0.9, max: 0.9, book: null },
    });
    // The window: `from` inclusive, `to` exclusive.
    const recent = await backend.read.listAnalyses(WS, "Maize", { from: daysAgo(10), to: daysAgo(9) });
    expect((await backend.read.listAnalyses(WS, "Maize", { from: daysAgo(30), to: daysAgo(10) })).analyses.map((x) => x.id)).toEqual([a.id]);
    expect(recent.analyses.map((x) => x.id)).toEqual([c.id, b.id]);
    expect(recent.stats.CP).toEqual({ n: 2, mean: 8.35, sd: 0.3536, min: 8.1, max: 8.6, book: 8 });
    expect((await backend.read.listAnalyses(WS, "Soybean meal 48%")).analyses).toEqual([]);
    await expect((async () => backend.read.listAnalyses(WS, "Wheat"))()).rejects.toThrow("Ingredient not found: Wheat");
  });

  test("an analysis of an unknown ingredient is refused with the ingredient's 404", async () => {
    const backend = await fresh();
    await expect(backend.write.addAnalysis(actor(), "Wheat", analysis({ CP: 11 }, daysAgo(1)))).rejects.toThrow("Ingredient not found: Wheat");
  });

  test("variability: sd of each book key from 3 analyses in the window up; other keys, too few analyses, unknown names absent", async () => {
    const backend = await fresh();
    const maizeCp = [7.4, 8.1, 8.6, 7.9];
    for (const [i, cp] of maizeCp.entries()) await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: cp, DON: i, ...(i < 2 ? { Lys: 0.24 + i / 100 } : {}) }, daysAgo(100 + i)));
    // Outside a window starting 200 days ago: counted only by a wider one.
    await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 12 }, daysAgo(400)));
    const soy = [46.1, 48.9, 47.2];
    for (const [i, cp] of soy.entries()) await backend.write.addAnalysis(actor(), "Soybean meal 48%", analysis({ CP: cp, Lys: 2.9 }, daysAgo(i)));

    const since = daysAgo(200);
    const got = await backend.read.variability(WS, ["Maize", "Soybean meal 48%", "Wheat"], since);
    // Maize: CP from 4 analyses; DON is no book key; Lys has 2 analyses only. Soybean meal: CP, and Lys (3 equal values: sd 0).
    expect(Object.keys(got).sort()).toEqual(["Maize", "Soybean meal 48%"]);
    expect(Object.keys(got.Maize!)).toEqual(["CP"]);
    expect(got.Maize!.CP).toBeCloseTo(sd(maizeCp), 12);
    expect(got["Soybean meal 48%"]!.CP).toBeCloseTo(sd(soy), 12);
    expect(got["Soybean meal 48%"]!.Lys).toBe(0);

    // `since` is inclusive: the analysis sampled exactly then counts.
    const wider = await backend.read.variability(WS, ["Maize"], daysAgo(400));
    expect(wider.Maize!.CP).toBeCloseTo(sd([...maizeCp, 12]), 12);
    // A window holding only 2 of soybean meal's analyses: fixed.
    expect(await backend.read.variability(WS, ["Soybean meal 48%"], daysAgo(1))).toEqual({ "Soybean meal 48%": {} });
    expect(await backend.read.variability(WS, [], since)).toEqual({});
  });

  test("variability counts nothing sampled after now", async () => {
    const backend = await fresh();
    for (const cp of [46, 47, 48]) await backend.write.addAnalysis(actor(), "Soybean meal 48%", analysis({ CP: cp }, new Date(NOW + 86_400_000).toISOString()));
    expect(await backend.read.variability(WS, ["Soybean meal 48%"], daysAgo(365))).toEqual({ "Soybean meal 48%": {} });
  });

  test("deleted by id within its workspace, answering what it was; an ingredient deleted takes its analyses with it", async () => {
    const backend = await fresh();
    const a = await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 7.4 }, daysAgo(3)));
    const b = await backend.write.addAnalysis(actor(), "Maize", analysis({ CP: 8.4 }, daysAgo(2)));
    await withAdmin(async (admin) => {
      const other = await admin.createWorkspace("north", "North mill", new Date().toISOString());
      await expect((async () => admin.deleteAnalysis(other.id, a.id))()).rejects.toThrow(`Analysis not found: ${a.id}`);
      expect(await admin.deleteAnalysis(WS, a.id)).toEqual(a);
      await expect((async () => admin.deleteAnalysis(WS, a.id))()).rejects.toThrow(`Analysis not found: ${a.id}`);
      expect((await admin.listAnalyses(WS, "Maize")).analyses).toEqual([b]);
      await admin.deleteIngredient(WS, "Maize");
    });
    await backend.write.createIngredient(actor(), { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: { CP: 8 } });
    expect((await backend.read.listAnalyses(WS, "Maize")).analyses).toEqual([]);
  });
});
