import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkConstraints, computeFormula } from "../src/domain/formula-math.ts";

const DEMO = join(import.meta.dir, "..", "src", "demo");

const NUTRIENT_KEYS = [
  "DM", "ME_poultry", "ME_swine", "NE_swine", "CP", "CF", "EE", "Ca", "avP", "STTD_P",
  "Lys", "Met", "MetCys", "Thr", "Trp", "Na", "Cl",
  // Digestible amino acids for poultry (d) and standardised ileal digestible for swine (SID).
  "dLys", "dMet", "dMetCys", "dThr", "dTrp", "SID_Lys", "SID_Met", "SID_MetCys", "SID_Thr", "SID_Trp",
  // Ruminants: net energy of lactation, fibre, starch, rumen-undegradable protein.
  "NEL", "NDF", "starch", "RUP",
];
const POOLS = [
  "Cereals", "Cereal by-products", "Protein meals", "Animal proteins",
  "Fats and oils", "Minerals", "Amino acids", "Additives",
];

/**
 * Deliberately tiny (quoted fields, doubled quotes, LF/CRLF): it only has to read our own file.
 * The product's CSV import is its own module with its own tests; this keeps the data test
 * independent of it so a bug there cannot hide a bad demo file.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else {
      field += ch;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

interface Ingredient {
  name: string;
  category: string;
  price: number;
  inStock: boolean;
  co2e: number | null;
  nutrients: Record<string, number>;
}

interface DemoFormula {
  id: string;
  name: string;
  species: string;
  subcategory: string;
  batchSize: number;
  createdAt: string;
  ingredients: { name: string; percent: number }[];
  constraints: {
    nutrients: { key: string; min: number | null; max: number | null }[];
    ingredients: { name: string; min: number | null; max: number | null }[];
  };
}

const csvRows = parseCsv(readFileSync(join(DEMO, "ingredients.csv"), "utf8"));
const header = csvRows[0] ?? [];
const nutrientColumns = header.slice(5);

const ingredients: Ingredient[] = csvRows.slice(1).map((cells, i) => {
  const line = i + 2; // the header is line 1
  if (cells.length !== header.length) {
    throw new Error(`line ${line}: ${cells.length} cells, header has ${header.length}`);
  }
  const [name = "", category = "", price = "", inStock = "", co2e = ""] = cells;
  const nutrients: Record<string, number> = {};
  nutrientColumns.forEach((key, j) => {
    const cell = cells[j + 5] ?? "";
    if (cell !== "") nutrients[key] = Number(cell);
  });
  return { name, category, price: Number(price), inStock: inStock === "true", co2e: co2e === "" ? null : Number(co2e), nutrients };
});
const rawInStock = csvRows.slice(1).map((cells) => cells[3]);
const byName = new Map(ingredients.map((ing) => [ing.name, ing]));

const formulas = JSON.parse(readFileSync(join(DEMO, "formulas.json"), "utf8")) as DemoFormula[];

function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

describe("demo ingredients.csv", () => {
  test("header: name, category, price, inStock, co2e, then the nutrient keys sorted by bytes", () => {
    expect(header.slice(0, 5)).toEqual(["name", "category", "price", "inStock", "co2e"]);
    expect(nutrientColumns).toEqual([...nutrientColumns].sort(byteCompare));
    expect([...nutrientColumns].sort()).toEqual([...NUTRIENT_KEYS].sort());
  });

  test("every ingredient has a footprint within published ranges (docs/carbon.md); two soybean meals by origin", () => {
    for (const ing of ingredients) expect({ name: ing.name, co2e: ing.co2e !== null && ing.co2e >= 0 && ing.co2e <= 12 }).toEqual({ name: ing.name, co2e: true });
    const co2e = (name: string) => byName.get(name)!.co2e!;
    // Brazil with land-use change 4–5, the US 0.4–0.7, maize 0.3–0.5 kg CO2e per kg as fed.
    expect(co2e("Soybean meal 48% BR")).toBeGreaterThanOrEqual(4);
    expect(co2e("Soybean meal 48% BR")).toBeLessThanOrEqual(5);
    expect(co2e("Soybean meal 48% US")).toBeGreaterThanOrEqual(0.4);
    expect(co2e("Soybean meal 48% US")).toBeLessThanOrEqual(0.7);
    expect(co2e("Maize")).toBeGreaterThanOrEqual(0.3);
    expect(co2e("Maize")).toBeLessThanOrEqual(0.5);
    // The same meal but for its origin: the frontier then has a choice to make.
    expect(byName.get("Soybean meal 48% BR")!.nutrients).toEqual(byName.get("Soybean meal 48% US")!.nutrients);
  });

  test("at least 40 distinct ingredients, with realistic names", () => {
    expect(ingredients.length).toBeGreaterThanOrEqual(40);
    expect(byName.size).toBe(ingredients.length);
    for (const ing of ingredients) {
      expect(ing.name.length).toBeGreaterThan(0);
      expect(ing.name.trim()).toBe(ing.name);
    }
    expect(ingredients.some((ing) => ing.name.includes("%"))).toBe(true);
  });

  test("every pool is used and no other", () => {
    expect(new Set(ingredients.map((ing) => ing.category))).toEqual(new Set(POOLS));
  });

  test("prices are positive, inStock is literally true or false", () => {
    for (const ing of ingredients) expect(ing.price).toBeGreaterThan(0);
    for (const value of rawInStock) expect(["true", "false"]).toContain(value ?? "");
  });

  test("every nutrient key has values somewhere, and every value is a finite non-negative number", () => {
    for (const key of NUTRIENT_KEYS) {
      expect(ingredients.filter((ing) => key in ing.nutrients).length).toBeGreaterThan(0);
    }
    for (const ing of ingredients) {
      for (const [key, value] of Object.entries(ing.nutrients)) {
        if (!Number.isFinite(value) || value < 0) {
          throw new Error(`${ing.name} ${key}: ${value}`);
        }
      }
      // Percentages of the feed cannot exceed 100; energies (ME, NE in kcal/kg, NEL in Mcal/kg) are not percentages, and
      // an enzyme's matrix values (what 0.01 % of it releases, written per 100 % of the product) are not either.
      if (ing.name.startsWith("Phytase")) continue;
      for (const key of NUTRIENT_KEYS.filter((k) => !/^(ME_|NE_|NEL$)/.test(k))) {
        expect({ name: ing.name, key, percent: (ing.nutrients[key] ?? 0) <= 100 }).toEqual({ name: ing.name, key, percent: true });
      }
    }
  });
});

describe("demo formulas.json", () => {
  test("at least 8 formulas covering the species the design names", () => {
    expect(formulas.length).toBeGreaterThanOrEqual(8);
    const ids = formulas.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      "broiler-starter", "broiler-grower", "broiler-finisher", "layer-phase-1",
      "swine-grower", "swine-finisher", "dairy-lactation-concentrate",
    ]) {
      expect(ids).toContain(id);
    }
  });

  test("import-format fields are valid", () => {
    const createdAts = new Set<string>();
    for (const f of formulas) {
      expect(f.id).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      for (const text of [f.name, f.species, f.subcategory]) {
        expect(text.length).toBeGreaterThanOrEqual(1);
        expect(text.length).toBeLessThanOrEqual(100);
      }
      expect(f.batchSize).toBeGreaterThanOrEqual(1);
      expect(f.batchSize).toBeLessThanOrEqual(1e7);
      expect(new Date(f.createdAt).toISOString()).toBe(f.createdAt);
      expect(f.createdAt.startsWith("2026-")).toBe(true);
      createdAts.add(f.createdAt);
      // prices and nutrients must come from the ingredient database at import
      expect(Object.keys(f).sort()).toEqual(
        ["id", "name", "species", "subcategory", "batchSize", "createdAt", "ingredients", "constraints"].sort(),
      );
      for (const row of f.ingredients) expect(Object.keys(row).sort()).toEqual(["name", "percent"]);
    }
    expect(createdAts.size).toBe(formulas.length);
  });

  for (const f of formulas) {
    describe(f.id, () => {
      test("uses only in-stock ingredients from the CSV, each once", () => {
        const names = f.ingredients.map((row) => row.name);
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) {
          if (!byName.has(name)) throw new Error(`unknown ingredient ${name}`);
          expect(byName.get(name)?.inStock).toBe(true);
        }
        for (const c of f.constraints.ingredients) {
          if (!byName.has(c.name)) throw new Error(`constraint on unknown ingredient ${c.name}`);
        }
        for (const c of f.constraints.nutrients) expect(NUTRIENT_KEYS).toContain(c.key);
      });

      test("percents are in (0, 100] and sum to 100 ± 0.01", () => {
        for (const row of f.ingredients) {
          expect(row.percent).toBeGreaterThan(0);
          expect(row.percent).toBeLessThanOrEqual(100);
        }
        const sum = f.ingredients.reduce((acc, row) => acc + row.percent, 0);
        expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.01 + 1e-9);
      });

      test("achieved nutrients meet every constraint", () => {
        const computed = computeFormula({
          batchSize: f.batchSize,
          ingredients: f.ingredients.map((row) => {
            const ing = byName.get(row.name);
            if (!ing) throw new Error(`unknown ingredient ${row.name}`);
            return { name: row.name, percent: row.percent, price: ing.price, nutrients: ing.nutrients };
          }),
        });
        const violations = checkConstraints({
          ingredients: computed.ingredients,
          nutrients: computed.nutrients,
          constraints: f.constraints,
        });
        expect(violations).toEqual([]);
        expect(computed.totalCost).toBeGreaterThan(0);
      });
    });
  }
});

describe("demo specifications a nutritionist recognises today", () => {
  const limited = (f: (typeof formulas)[number]) => new Set(f.constraints.nutrients.map((c) => c.key));
  const capped = (f: (typeof formulas)[number], name: string) => f.constraints.ingredients.find((c) => c.name === name);

  test("poultry on digestible amino acids, swine on net energy, SID amino acids and STTD P; neither on total amino acids or swine ME", () => {
    for (const f of formulas) {
      const keys = limited(f);
      for (const total of ["Lys", "Met", "MetCys", "Thr", "Trp", "ME_swine"]) expect({ id: f.id, total, used: keys.has(total) }).toEqual({ id: f.id, total, used: false });
      if (f.species === "Poultry" || f.species === "Turkey") for (const k of ["ME_poultry", "dLys", "dMetCys", "dThr", "dTrp", "avP"]) expect({ id: f.id, k, used: keys.has(k) }).toEqual({ id: f.id, k, used: true });
      if (f.species === "Swine") for (const k of ["NE_swine", "SID_Lys", "SID_MetCys", "SID_Thr", "SID_Trp", "STTD_P"]) expect({ id: f.id, k, used: keys.has(k) }).toEqual({ id: f.id, k, used: true });
      if (f.species === "Dairy") for (const k of ["NEL", "NDF", "starch", "RUP"]) expect({ id: f.id, k, used: keys.has(k) }).toEqual({ id: f.id, k, used: true });
    }
  });

  test("every poultry and swine formula holds phytase at a fixed inclusion with its matrix values, and caps each synthetic amino acid", () => {
    const phytase = ingredients.find((i) => i.name.startsWith("Phytase"))!;
    for (const key of ["avP", "STTD_P", "Ca", "ME_poultry", "NE_swine"]) expect(phytase.nutrients[key]).toBeGreaterThan(0);
    for (const f of formulas.filter((x) => x.species !== "Dairy" && x.species !== "Beef")) {
      const p = capped(f, phytase.name)!;
      expect({ id: f.id, fixed: p !== undefined && p.min === p.max && p.min! > 0 }).toEqual({ id: f.id, fixed: true });
      for (const aa of ["DL-Methionine 99%", "L-Lysine HCl", "L-Threonine", "L-Tryptophan"]) {
        const cap = capped(f, aa);
        expect({ id: f.id, aa, capped: cap !== undefined && cap.max !== null && cap.max <= 0.5 }).toEqual({ id: f.id, aa, capped: true });
      }
    }
  });
});
