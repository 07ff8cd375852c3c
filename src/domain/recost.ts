/**
 * Recosting a saved formula at other prices (docs/decisions.md#price-history-and-formula-costs). Pure functions over
 * the stored composition, with the arithmetic of formula-math.ts, so a formula recosted at its own
 * saved prices costs exactly its saved `totalCost`.
 */
import type { z } from "zod";
import type { costChangesResponse, formulaCostResponse } from "../schemas/history.ts";
import type { Footprint } from "./footprint.ts";
import { costOf, rawCost, round } from "./formula-math.ts";

/** A saved composition row: `price` and `cost` as frozen at import. */
export interface SavedRow {
  name: string;
  percent: number;
  amount: number;
  price: number;
  cost: number;
}

export interface SavedFormula {
  id: string;
  name: string;
  batchSize: number;
  totalCost: number;
  ingredients: readonly SavedRow[];
}

export type PriceOf = (name: string, row: SavedRow) => number;

/** `data` of GET /v1/formulas/:id/cost, as its schema documents it. */
export type FormulaCost = z.output<typeof formulaCostResponse>["data"];
/** The recosting alone; the store adds the footprint (today's `co2e` values, not the prices'). */
export type Recosted = Omit<FormulaCost, keyof Footprint>;

/**
 * The cost of a composition at the given prices: unrounded row costs summed, then rounded to 2.
 * @example costAt(2000, rows, (name) => prices.get(name)!) // 612.44
 */
export function costAt(batchSize: number, rows: readonly SavedRow[], priceOf: PriceOf): number {
  // totalCostOf's sum, without an object per row: the report costs every formula twice.
  let sum = 0;
  for (const row of rows) sum += rawCost(row.percent, batchSize, priceOf(row.name, row));
  return round(sum, 2);
}

/**
 * The cost of one tonne of a composition at the given prices: Σ percent/100 × price, rounded to 2
 * once (never derived from a rounded per-batch cost, so formulas of any batch size compare exactly).
 * @example costPerTonAt(rows, (name) => prices.get(name)!) // 306.22
 */
export function costPerTonAt(rows: readonly SavedRow[], priceOf: PriceOf): number {
  let sum = 0;
  for (const row of rows) sum += (row.percent / 100) * priceOf(row.name, row);
  return round(sum, 2);
}

const savedPrice: PriceOf = (_, row) => row.price;

/** `part / whole × 100` to 2 decimals; null when there is no whole to compare with. */
export function percentOf(part: number, whole: number): number | null {
  return whole === 0 ? null : round((part / whole) * 100, 2);
}

/**
 * A formula recosted at other prices, row by row, against its saved figures.
 * @example recost(formula, "2026-10-01T00:00:00.000Z", (name) => prices.get(name)!).change // 12.4
 */
export function recost(f: SavedFormula, at: string, priceOf: PriceOf): Recosted {
  const cost = costAt(f.batchSize, f.ingredients, priceOf);
  const change = round(cost - f.totalCost, 2);
  const costPerTon = costPerTonAt(f.ingredients, priceOf);
  return {
    id: f.id,
    name: f.name,
    batchSize: f.batchSize,
    totalCost: f.totalCost,
    at,
    cost,
    change,
    changePercent: percentOf(change, f.totalCost),
    costPerTon,
    changePerTon: round(costPerTon - costPerTonAt(f.ingredients, savedPrice), 2),
    ingredients: f.ingredients.map((row) => {
      const price = priceOf(row.name, row);
      const rowCost = costOf(row.amount, price);
      return { name: row.name, percent: row.percent, amount: row.amount, savedPrice: row.price, price, cost: rowCost, change: round(rowCost - row.cost, 2) };
    }),
  };
}

/** One formula of GET /v1/reports/cost-changes, as its schema documents it. */
export type CostChange = z.output<typeof costChangesResponse>["data"][number];
export type CostChangeDriver = CostChange["drivers"][number];

const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * How a formula's cost moved between two sets of prices, or null when it did not move at 2 decimals.
 * Drivers are the rows whose cost moved at 2 decimals, largest move first.
 * @example costChange({ ...formula, species, subcategory }, { cost: f.totalCost, priceOf: (_, row) => row.price }, { cost: now, priceOf: current })
 */
export function costChange(
  f: SavedFormula & { species: string; subcategory: string },
  then: { cost: number; priceOf: PriceOf },
  now: { cost: number; priceOf: PriceOf },
): CostChange | null {
  const change = round(now.cost - then.cost, 2);
  if (change === 0) return null;
  const drivers: CostChangeDriver[] = [];
  for (const row of f.ingredients) {
    const priceThen = then.priceOf(row.name, row);
    const priceNow = now.priceOf(row.name, row);
    if (priceNow === priceThen) continue;
    // The difference of the two row costs as each is shown (GET /v1/formulas/:id/cost's row change), not the cost of the price step.
    const moved = round(costOf(row.amount, priceNow) - costOf(row.amount, priceThen), 2);
    if (moved !== 0) drivers.push({ name: row.name, priceThen, priceNow, change: moved });
  }
  drivers.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || byBytes(a.name, b.name));
  const { id, name, species, subcategory, batchSize } = f;
  const costPerTon = costPerTonAt(f.ingredients, now.priceOf);
  const changePerTon = round(costPerTon - costPerTonAt(f.ingredients, then.priceOf), 2);
  return { id, name, species, subcategory, batchSize, costThen: then.cost, costNow: now.cost, change, changePercent: percentOf(change, then.cost), costPerTon, changePerTon, drivers };
}

/**
 * The report's order: largest relative move first (a move from a cost of 0, with no percentage,
 * before any other), then id by bytes.
 * @example changes.sort(byLargestMove)
 */
export function byLargestMove(a: CostChange, b: CostChange): number {
  const size = (c: CostChange) => (c.changePercent === null ? Infinity : Math.abs(c.changePercent));
  return size(b) - size(a) || byBytes(a.id, b.id);
}
