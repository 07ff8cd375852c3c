/**
 * A formula optimized, in the shape of GET /v1/formulas/:id/optimize: the saved composition at these
 * prices, the least-cost mix, the saving and how firm the answer is, rounded for people (percents 4
 * decimals, costs 2, shadow prices 4, prices and ranges 2).
 */
import type { Highs } from "highs";
import { achievedNutrients, amountOf, costOf, round, totalCostOf, type FormulaConstraints } from "../domain/formula-math.ts";
import type { OptimizeResult } from "../schemas/optimize.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { decimalOf, weightedSum } from "./exact.ts";
import { shownEntersBelow, shownPriceRange, shownValidity } from "./inward.ts";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import { footprintOf } from "../domain/footprint.ts";
import { candidateNamesOf, type CandidateOptions } from "./candidates.ts";
import { co2eKnown, co2eShadowShown, withCo2eCap } from "./co2e.ts";
import { buildProblem, inMix, type Candidate, type Limit } from "./model.ts";
import type { Conflict } from "./conflicts.ts";
import { limitTarget } from "./limit-target.ts";
import type { Repair } from "./repairs.ts";
import { roundedMix } from "./rounding.ts";
import { solveLeastCost, type LeastCostOutcome } from "./solve.ts";

export interface OptimizeOptions extends CandidateOptions {
  /** Extra candidates (names the workspace holds). */
  include: readonly string[];
  /** What-if prices per ton by name; never stored. A name outside the candidates becomes one. */
  prices: ReadonlyMap<string, number>;
  /** Let out-of-stock candidates into the mix instead of holding them at 0. */
  includeOutOfStock: boolean;
  /** A cap on the mix's footprint, kg CO2e per tonne (absent or null: none). */
  maxCo2e?: number | null;
}

export const NO_OPTIONS: OptimizeOptions = { include: [], prices: new Map(), includeOutOfStock: false };

export interface FormulaToOptimize {
  id: string;
  name: string;
  batchSize: number;
  ingredients: ReadonlyArray<{ name: string; percent: number; price: number }>;
  constraints: FormulaConstraints;
}

/** What a solve reads of an ingredient; the rest of its detail (category, times) stays on the event loop. */
export type CandidateDetail = Pick<IngredientDetail, "name" | "price" | "inStock" | "co2e" | "nutrients">;

type Lookup = (name: string) => CandidateDetail | null;

/**
 * The candidates of a formula (candidates.ts); prices from the database or the what-ifs. A name the
 * database does not hold is no candidate.
 * @example candidatesOf(formula, (n) => findIngredient(db, ws, n), NO_OPTIONS)
 */
export function candidatesOf(formula: FormulaToOptimize, lookup: Lookup, options: OptimizeOptions): Candidate[] {
  return candidateNamesOf(formula, options).flatMap((name) => {
    const found = lookup(name);
    if (!found) return [];
    return [{ name, price: options.prices.get(name) ?? found.price, held: !found.inStock && !options.includeOutOfStock, nutrients: found.nutrients, co2e: found.co2e }];
  });
}

/**
 * Optimize a formula at today's prices and stock (or the what-ifs) and shape the answer.
 * @example optimizeFormula(highs, requireFormula(db, ws, "broiler-starter"), (n) => findIngredient(db, ws, n), NO_OPTIONS).status // "optimal"
 */
export function optimizeFormula(highs: Highs, formula: FormulaToOptimize, lookup: Lookup, options: OptimizeOptions): OptimizeResult {
  const candidates = candidatesOf(formula, lookup, options);
  const problem = buildProblem(candidates, formula.constraints);
  const outcome = solveLeastCost(highs, options.maxCo2e == null ? problem : withCo2eCap(problem, options.maxCo2e));
  const mix = outcome.status === "optimal" ? roundedMix(highs, outcome.problem, outcome.solution.x) : new Int32Array(0);
  return shapeResult(formula, lookup, options, outcome, mix);
}

/** The answer from a solve; `mix`: the rounded optimum in grid units of 0.0001 % (rounding.ts). */
export function shapeResult(formula: FormulaToOptimize, lookup: Lookup, options: OptimizeOptions, outcome: LeastCostOutcome, mix: Int32Array): OptimizeResult {
  const { batchSize } = formula;
  const priceNow = (row: { name: string; price: number }) => options.prices.get(row.name) ?? lookup(row.name)?.price ?? row.price;
  const currentRows = formula.ingredients.map((row) => ({ name: row.name, percent: row.percent, price: priceNow(row) }));
  const current = {
    cost: totalCostOf(currentRows.map((r) => ({ ...r, batchSize }))),
    costPerTon: costPerTonOf(currentRows),
    co2ePerTon: footprintOf(currentRows.map((r) => ({ ...r, co2e: lookup(r.name)?.co2e ?? null }))).co2ePerTon,
    ingredients: currentRows.map((r) => ({ ...r, cost: costOf(amountOf(r.percent, batchSize), r.price) })),
  };
  const head = { id: formula.id, name: formula.name, batchSize, status: outcome.status };

  if (outcome.status === "infeasible") {
    return {
      ...head,
      current,
      optimized: null,
      saving: null,
      shadowPrices: { nutrients: [], ingredients: [], ratios: [] },
      ranging: [],
      excluded: [],
      conflicts: outcome.conflicts.map(shapeConflict),
    };
  }

  const { solution, sensitivity } = outcome;
  const { candidates } = outcome.problem;
  const x = solution.x;
  // Every figure of the optimized mix is the rounded mix's (rounding.ts): what is shown is what is saved.
  const percentOf = (j: number) => round(mix[j]! / UNITS_PER_PERCENT, 4);
  const rows = candidates.flatMap((c, j) => (mix[j] === 0 ? [] : [{ name: c.name, percent: percentOf(j), price: c.price, nutrients: c.nutrients, co2e: c.co2e ?? null }]));
  rows.sort((a, b) => b.percent - a.percent || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const optimized = {
    cost: totalCostOf(rows.map((r) => ({ ...r, batchSize }))),
    costPerTon: costPerTonOf(rows),
    co2ePerTon: footprintOf(rows).co2ePerTon,
    ingredients: rows.map((r) => {
      const amount = amountOf(r.percent, batchSize);
      return { name: r.name, percent: r.percent, amount, price: round(r.price, 2), cost: costOf(amount, r.price) };
    }),
    nutrients: achievedNutrients(rows),
  };
  const perTon = round(current.costPerTon - optimized.costPerTon, 2);

  const shadow = { nutrients: [] as OptimizeResult["shadowPrices"]["nutrients"], ingredients: [] as OptimizeResult["shadowPrices"]["ingredients"], ratios: [] as OptimizeResult["shadowPrices"]["ratios"] };
  for (const s of sensitivity.shadowPrices) {
    const common = { bound: s.bound, limit: s.value, shadowPrice: round(s.shadowPrice, 4) };
    const range = shownValidity(s);
    if (s.limit.kind === "nutrient") shadow.nutrients.push({ key: s.limit.key, ...common, ...range });
    else if (s.limit.kind === "ingredient") shadow.ingredients.push({ name: s.limit.name, ...common, ...range });
    else if (s.limit.kind === "ratio") shadow.ratios.push({ numerator: s.limit.numerator, denominator: s.limit.denominator, ...common, ...range });
  }
  const co2e = co2eShadowShown(sensitivity.shadowPrices);
  const inUnrounded = candidates.flatMap((c, j) => (inMix(x, j) ? [{ c, j, percent: percentOf(j) }] : []));
  inUnrounded.sort((a, b) => b.percent - a.percent || (a.c.name < b.c.name ? -1 : a.c.name > b.c.name ? 1 : 0));

  return {
    ...head,
    current,
    optimized,
    saving: {
      perBatch: round(current.cost - optimized.cost, 2),
      perTon,
      percent: current.costPerTon === 0 ? null : round((perTon / current.costPerTon) * 100, 2),
    },
    shadowPrices: co2e ? { ...shadow, co2e } : shadow,
    ranging: inUnrounded.map(({ c, j, percent }) => ({ name: c.name, percent, price: round(c.price, 2), ...shownPriceRange(sensitivity.priceLow[j]!, sensitivity.priceHigh[j]!) })),
    excluded: candidates.flatMap((c, j) => {
      if (inMix(x, j)) return [];
      const held = options.maxCo2e != null && !co2eKnown(c) ? { reason: "co2e unknown" as const } : {};
      return [{ name: c.name, price: round(c.price, 2), entersBelow: shownEntersBelow(sensitivity.entersBelow[j]!), ...held }];
    }),
    conflicts: [],
  };
}

/**
 * Cost per ton of a composition: Σ percent / 100 × price, summed exactly in decimal and rounded once to 2 decimals.
 * @example costPerTonOf([{ percent: 60, price: 220 }, { percent: 40, price: 450 }]) // 312
 */
export function costPerTonOf(rows: ReadonlyArray<{ percent: number; price: number }>): number {
  const units = rows.map((r) => Math.round(r.percent * UNITS_PER_PERCENT));
  if (rows.some((r, k) => units[k]! / UNITS_PER_PERCENT !== round(r.percent, 4))) return round(rows.reduce((s, r) => s + (r.percent / 100) * r.price, 0), 2);
  return round(weightedSum(rows.map((r) => decimalOf(r.price)), units, 6), 2);
}

/** A conflict as the answer shows it; an elastic one (no `alone`, as the frontier's) is `alone: false`. */
export function shapeConflict(c: Conflict | Repair): OptimizeResult["conflicts"][number] {
  // A single repair's value is already rounded toward feasibility (repairs.ts).
  const tail = { bound: c.bound, limit: c.value, bestAchievable: c.bestAchievable === null ? null : round(c.bestAchievable, 4), alone: "alone" in c ? c.alone : false };
  return { ...limitTarget(c.limit), ...tail };
}
