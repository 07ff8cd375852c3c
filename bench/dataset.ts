/**
 * The benchmark's dataset, generated from a seed so every run measures the same bytes:
 * ingredients with 40 nutrients each in 6 pools, stored with the product's own `insertIngredient`
 * (so the data file is exactly what the server reads), formulas as the JSON that
 * `feedbase import formulas` takes, and ingredients as the CSV that `feedbase import ingredients` takes.
 *
 * Names carry spaces, `%` and `&` so that the detail and PUT paths exercise percent-decoding as
 * integrators' requests do.
 *
 * Run alone: `bun bench/dataset.ts <data-file> [count]` seeds a data file (created if missing).
 */
import { openDatabase } from "../src/store/db.ts";
import { insertIngredient } from "../src/store/ingredient-changes.ts";
import { requireWorkspace } from "../src/store/workspaces.ts";
import type { CreateIngredient } from "../src/schemas/ingredients.ts";
import { seeded } from "../src/domain/random.ts";
import type { z } from "zod";
import type { formulaImport } from "../src/schemas/formulas.ts";

/** The seed every figure in bench/RESULTS.md is measured with. */
export const SEED = 42;

/** 40 nutrient keys of a feed table (energy, proximates, minerals, amino acids, others). */
export const NUTRIENT_KEYS: readonly string[] = [
  "ME_poultry", "ME_swine", "NE_swine", "DE_swine", "NEl", "ME_ruminant", "DM", "CP", "CF", "EE",
  "Ash", "NDF", "ADF", "Starch", "Sugar", "Ca", "P", "avP", "Na", "Cl",
  "K", "Mg", "S", "Lys", "Met", "MetCys", "Thr", "Trp", "Ile", "Val",
  "Arg", "Leu", "His", "Phe", "PheTyr", "Gly", "Ser", "Linoleic", "Choline", "Xanthophyll",
];

/** The 6 pools, each with the base names its ingredients are lots of. */
const POOLS: Record<string, readonly string[]> = {
  Cereals: ["Maize", "Wheat", "Barley", "Sorghum", "Oats", "Triticale"],
  "Cereal by-products": ["Wheat bran", "Wheat middlings", "Corn DDGS", "Rice bran", "Corn gluten feed"],
  "Protein meals": ["Soybean meal 44%", "Soybean meal 48%", "Canola meal", "Sunflower meal 36%", "Cottonseed meal"],
  "Animal proteins": ["Fish meal 65%", "Meat & bone meal 50%", "Poultry by-product meal", "Blood meal", "Feather meal"],
  "Fats and oils": ["Soybean oil", "Palm oil", "Tallow", "Poultry fat", "Rapeseed oil"],
  Minerals: ["Limestone", "Dicalcium phosphate 18% P", "Salt", "Sodium bicarbonate", "Monocalcium phosphate"],
};

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/**
 * `count` ingredients spread over the 6 pools, each with all 40 nutrients, unique names
 * (`<base> lot <n>`), prices per ton with cents, 1 in 10 out of stock.
 * @example generateIngredients(1000, SEED)[0] // { name: "Maize lot 0001", category: "Cereals", price: 231.57, ... }
 */
export function generateIngredients(count: number, seed: number): CreateIngredient[] {
  const next = seeded(seed);
  const pools = Object.entries(POOLS);
  const width = String(count).length;
  const out: CreateIngredient[] = [];
  for (let i = 0; i < count; i++) {
    const [category, bases] = pools[i % pools.length]!;
    const base = bases[Math.floor(i / pools.length) % bases.length]!;
    const nutrients: Record<string, number> = {};
    for (const key of NUTRIENT_KEYS) nutrients[key] = round(next() * (key.startsWith("ME") || key.startsWith("NE") || key.startsWith("DE") ? 4000 : 60), 3);
    out.push({
      name: `${base} lot ${String(i + 1).padStart(width, "0")}`,
      category,
      price: round(100 + next() * 1400, 2),
      inStock: next() >= 0.1,
      nutrients,
    });
  }
  return out;
}

/**
 * Insert ingredients into workspace `default` of a data file (created and migrated if missing),
 * in one transaction, with the store's own insert.
 * @example seedIngredients("/tmp/bench/feedbase.db", generateIngredients(1000, SEED))
 */
export function seedIngredients(dataPath: string, ingredients: readonly CreateIngredient[], now = "2026-01-05T08:00:00.000Z"): void {
  const db = openDatabase(dataPath, { create: true });
  try {
    const workspaceId = requireWorkspace(db, "default").id;
    db.transaction(() => {
      for (const ingredient of ingredients) insertIngredient(db, workspaceId, ingredient, "import", now);
    }).immediate();
  } finally {
    db.close();
  }
}

/** One formula in the input shape of `feedbase import formulas` (docs/decisions.md#formulas-and-files); the generator always names its id. */
type FormulaImport = z.input<typeof formulaImport> & { id: string };

const SPECIES: readonly [string, readonly string[]][] = [
  ["Poultry", ["Broiler starter", "Broiler grower", "Broiler finisher", "Layer"]],
  ["Swine", ["Grower", "Finisher", "Sow lactation"]],
  ["Dairy", ["Concentrate", "Calf starter"]],
];

/**
 * `count` formulas of `lines` distinct ingredients each, percents in hundredths summing to exactly 100,
 * with a few nutrient and inclusion constraints, createdAt one hour apart.
 * @example generateFormulas(generateIngredients(1000, SEED), 200, 12, SEED)[0].ingredients.length // 12
 */
export function generateFormulas(ingredients: readonly CreateIngredient[], count: number, lines: number, seed: number): FormulaImport[] {
  const next = seeded(seed + 1);
  const out: FormulaImport[] = [];
  for (let f = 0; f < count; f++) {
    const picked = new Set<number>();
    while (picked.size < lines) picked.add(Math.floor(next() * ingredients.length));
    const weights = [...picked].map(() => 1 + next() * 9);
    const total = weights.reduce((a, b) => a + b, 0);
    const hundredths = weights.map((w) => Math.max(1, Math.floor((w / total) * 10_000)));
    hundredths[0]! += 10_000 - hundredths.reduce((a, b) => a + b, 0);
    const names = [...picked].map((i) => ingredients[i]!.name);
    const [species, subs] = SPECIES[f % SPECIES.length]!;
    out.push({
      id: `frm_bench${String(f + 1).padStart(11, "0")}`,
      name: `${subs[f % subs.length]} ${f + 1}`,
      species,
      subcategory: subs[f % subs.length]!,
      batchSize: [1000, 2000, 5000][f % 3]!,
      createdAt: new Date(Date.parse("2026-01-01T00:00:00.000Z") + f * 3_600_000).toISOString(),
      ingredients: names.map((name, i) => ({ name, percent: hundredths[i]! / 100 })),
      constraints: {
        nutrients: NUTRIENT_KEYS.slice(0, 6).map((key, i) => ({ key, min: i % 2 === 0 ? round(next() * 10, 2) : null, max: round(20 + next() * 4000, 2) })),
        ingredients: names.slice(0, 3).map((name) => ({ name, min: null, max: 40 })),
      },
    });
  }
  return out;
}

/**
 * Ingredients as the CSV `feedbase import ingredients` reads: `name,category,price,inStock,` then
 * the nutrient keys sorted by bytes (the export's column order).
 * @example ingredientsCsv(generateIngredients(3, SEED)).split("\n")[0] // "name,category,price,inStock,ADF,Arg,..."
 */
export function ingredientsCsv(ingredients: readonly CreateIngredient[]): string {
  const keys = [...NUTRIENT_KEYS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const rows = ingredients.map((i) => [cell(i.name), cell(i.category), String(i.price), String(i.inStock), ...keys.map((k) => String(i.nutrients[k] ?? ""))].join(","));
  return ["name,category,price,inStock," + keys.join(","), ...rows].join("\n") + "\n";
}

if (import.meta.main) {
  const [dataPath, count = "1000"] = process.argv.slice(2);
  if (!dataPath) {
    process.stderr.write("usage: bun bench/dataset.ts <data-file> [count]\n");
    process.exit(2);
  }
  seedIngredients(dataPath, generateIngredients(Number(count), SEED));
  process.stdout.write(`Seeded ${count} ingredients into ${dataPath}\n`);
}
