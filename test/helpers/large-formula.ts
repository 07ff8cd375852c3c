/**
 * A large formula and its ingredients, generated (never stored in the repository): `candidates`
 * ingredients with `nutrients` nutrient values each, and a formula over all of them with `limits`
 * nutrient limits, `limits` inclusion limits and `ratios` ratio limits, all met by its own saved mix
 * (so the problem is feasible, and degenerate enough to be slow). The scale of issue 26's probe is
 * large({ candidates: 3000, nutrients: 1000, limits: 1000, ratios: 1000 }).
 */
import { seeded } from "../../src/domain/random.ts";
import type { FormulaToOptimize } from "../../src/optimize/result.ts";
import type { IngredientDetail } from "../../src/store/ingredients.ts";

export interface LargeSize {
  candidates: number;
  nutrients: number;
  limits: number;
  ratios: number;
}

/** @example const { formula, ingredients } = largeFormula({ candidates: 300, nutrients: 300, limits: 300, ratios: 100 }) */
export function largeFormula(size: LargeSize, seed = 26): { formula: FormulaToOptimize & { species: string; subcategory: string }; ingredients: IngredientDetail[] } {
  const next = seeded(seed);
  const keys = Array.from({ length: size.nutrients }, (_, k) => `N${k}`);
  const ingredients = Array.from({ length: size.candidates }, (_, j): IngredientDetail => ({
    name: `Large ${j}`,
    category: "Large",
    price: Math.round((100 + next() * 900) * 100) / 100,
    inStock: true,
    co2e: null,
    nutrients: Object.fromEntries(keys.map((k) => [k, Math.round(next() * 5000) / 100])),
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  }));
  const percent = 100 / size.candidates;
  const level = (key: string) => ingredients.reduce((s, d) => s + (d.nutrients[key]! * percent) / 100, 0);
  const limited = keys.slice(0, size.limits);
  return {
    formula: {
      id: "large",
      name: `Large ${size.candidates} × ${size.limits}`,
      species: "Poultry",
      subcategory: "Large",
      batchSize: 1000,
      ingredients: ingredients.map((d) => ({ name: d.name, percent, price: d.price })),
      constraints: {
        nutrients: limited.map((key) => ({ key, min: round(level(key) * 0.99), max: round(level(key) * 1.01) })),
        ingredients: ingredients.slice(0, size.limits).map((d) => ({ name: d.name, min: 0, max: round(percent * 3) })),
        ratios: Array.from({ length: size.ratios }, (_, r) => {
          const [a, b] = [keys[r % keys.length]!, keys[(r + 1) % keys.length]!];
          const ratio = level(a) / level(b);
          return { numerator: a, denominator: b, min: round(ratio * 0.98), max: round(ratio * 1.02) };
        }),
      },
    },
    ingredients,
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * A size no solve finishes inside a test's 3 s time limit: about 30 s unlimited on a quiet 2-core
 * machine (200 × 100 took 2.0 s there, inside the limit, and the time-limit tests saw 200).
 */
export const SLOWER_THAN_A_TIME_LIMIT: LargeSize = { candidates: 400, nutrients: 300, limits: 300, ratios: 60 };
