/**
 * The demo's lab analyses: for the ingredients a mill analyses most, 6 to 10 results each over the
 * last 360 days, of the nutrients the demo's formulas limit, spread as lots really are
 * (docs/analyses.md: soybean meal CP sd about 1.4 %, maize 0.6 %), so the confidence optimization and
 * its curve have something to show from the first `make run`. Seeded: the same day gives the same analyses.
 */
import type { AnalysisFileRow } from "../domain/analysis-file.ts";
import { round } from "../domain/formula-math.ts";
import { seeded } from "../domain/random.ts";

/** Per ingredient, the sd across lots of each key a lab reports for it (in the key's unit, as fed). */
export const DEMO_SPREADS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  Maize: { CP: 0.6, CF: 0.3, EE: 0.3, ME_poultry: 45, NE_swine: 40, dLys: 0.02, SID_Lys: 0.02 },
  Wheat: { CP: 1.0, CF: 0.3, ME_poultry: 60, NE_swine: 50, dLys: 0.03, SID_Lys: 0.03 },
  Barley: { CP: 0.9, CF: 0.6, ME_poultry: 70, NE_swine: 50 },
  "Sorghum (low tannin)": { CP: 0.8 },
  "Corn DDGS": { CP: 1.5, CF: 0.5, EE: 1.0, dLys: 0.1, SID_Lys: 0.1 },
  "Soybean meal 44%": { CP: 1.4, CF: 0.5, ME_poultry: 60, NE_swine: 50, dLys: 0.1, dMetCys: 0.04, dThr: 0.05, SID_Lys: 0.1, SID_MetCys: 0.04, SID_Thr: 0.05 },
  "Soybean meal 48%": { CP: 1.4, CF: 0.4, ME_poultry: 60, NE_swine: 50, dLys: 0.1, dMetCys: 0.04, dThr: 0.05, SID_Lys: 0.1, SID_MetCys: 0.04, SID_Thr: 0.05 },
  "Full-fat soybean (extruded)": { CP: 1.2, EE: 1.0 },
  "Canola meal": { CP: 1.3, CF: 0.8, dLys: 0.1, SID_Lys: 0.1 },
  "Sunflower meal": { CP: 1.8, CF: 1.2 },
  "Fish meal 62%": { CP: 1.5, Ca: 0.4, avP: 0.2, dLys: 0.15 },
  "Meat and bone meal 50%": { CP: 2.0, Ca: 1.0, avP: 0.4, STTD_P: 0.4 },
  Limestone: { Ca: 0.6 },
  "Dicalcium phosphate": { Ca: 0.5, avP: 0.3, STTD_P: 0.3 },
};

const DAY_MS = 86_400_000;
/** Within the optimizer's default window of 365 days, whatever hour the demo starts. */
const WITHIN_DAYS = 360;
const LABS = ["NIR at intake", "Feed lab (wet chemistry)"];

/** A standard normal draw (Box–Muller) from a uniform generator. */
const normal = (random: () => number): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * `n` draws moved to mean 0 and sample sd exactly 1: the demo's spread is the one the table states,
 * not what a few draws happen to give.
 */
function standardized(random: () => number, n: number): number[] {
  const z = Array.from({ length: n }, () => normal(random));
  const mean = z.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(z.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  return z.map((v) => (v - mean) / sd);
}

/** Lab precision: energy in whole kcal, amino acids to 3 decimals, the rest to 2. */
const decimals = (sd: number): number => (sd >= 10 ? 0 : sd < 0.1 ? 3 : 2);

/**
 * The demo's analyses at `now`, for the ingredients of `books` (name → own nutrient values) the table
 * names, each around its book value; keys the ingredient lacks are not reported.
 * @example demoAnalyses(new Map([["Maize", { CP: 8.5 }]]), now).length // 6 to 10
 */
export function demoAnalyses(books: ReadonlyMap<string, Record<string, number>>, now: string): AnalysisFileRow[] {
  const random = seeded(20261126);
  const nowMs = Date.parse(now);
  const rows: AnalysisFileRow[] = [];
  for (const [name, spreads] of Object.entries(DEMO_SPREADS)) {
    const book = books.get(name);
    const n = 6 + Math.floor(random() * 5);
    const days = Array.from({ length: n }, () => 1 + random() * (WITHIN_DAYS - 1)).sort((a, b) => b - a);
    const draws = Object.fromEntries(Object.keys(spreads).map((key) => [key, standardized(random, n)]));
    if (!book) continue;
    days.forEach((daysAgo, i) => {
      const nutrients: Record<string, number> = {};
      for (const [key, sd] of Object.entries(spreads)) if (key in book) nutrients[key] = round(book[key]! + sd * draws[key]![i]!, decimals(sd));
      const sampledAt = new Date(Math.floor((nowMs - daysAgo * DAY_MS) / 60_000) * 60_000).toISOString();
      rows.push({ name, input: { nutrients, sampledAt, lot: `L-${sampledAt.slice(2, 10).replaceAll("-", "")}-${i + 1}`, lab: LABS[i % 2]! }, where: `the demo's ${name}` });
    });
  }
  return rows;
}
