/**
 * The cost reports' arithmetic over rows a store has read, the same for both backends: saved formulas
 * with their lines' current prices, the changes since an instant, and the formulas one price change
 * moves (the `formula.cost_changed` payload). Recosting itself is recost.ts.
 */
import { round, totalCostOf } from "./formula-math.ts";
import { byLargestMove, costAt, costChange, costPerTonAt, type CostChange, type SavedFormula, type SavedRow } from "./recost.ts";

/** A saved row with its ingredient's current price (null if the ingredient is gone). */
export type LiveRow = SavedRow & { priceNow: number | null };
export type ReportFormula = SavedFormula & { species: string; subcategory: string; ingredients: LiveRow[] };
/** A formula's row as the report selects it, before its lines are attached. */
export type ReportFormulaRow = Omit<ReportFormula, "ingredients">;
/** One line as `[formulaId, ingredient, percent, amount, price, cost]`, in formula then position order. */
export type ReportLine = [string, string, number, number, number, number];

/** A price map as a PriceOf; a row whose ingredient is gone keeps its saved price. @example recost(f, at, priceFrom(prices)) */
export const priceFrom = (prices: Map<string, number>) => (name: string, row: SavedRow) => prices.get(name) ?? row.price;
const currentPrice = (_: string, row: SavedRow) => (row as LiveRow).priceNow ?? row.price;

/**
 * Formulas with their lines attached, each line with its ingredient's current price.
 * @example withLines(rows, lines, currentPrices)[0].ingredients[0].priceNow // 228
 */
export function withLines(rows: ReportFormulaRow[], lines: readonly ReportLine[], prices: Map<string, number>): ReportFormula[] {
  const formulas = rows as ReportFormula[];
  const byId = new Map(formulas.map((f) => [f.id, ((f.ingredients = []), f)]));
  for (const [formulaId, name, percent, amount, price, cost] of lines) {
    byId.get(formulaId)?.ingredients.push({ name, percent, amount, price, cost, priceNow: prices.get(name) ?? null });
  }
  return formulas;
}

/**
 * Every formula whose cost now differs from its cost then (`then` null: its saved figures), largest
 * relative move first.
 * @example changesSince(formulas, priceFrom(pricesThen))[0].changePercent
 */
export function changesSince(formulas: readonly ReportFormula[], then: ((name: string, row: SavedRow) => number) | null): CostChange[] {
  const thenOf = then ?? ((_: string, row: SavedRow) => row.price);
  const changes: CostChange[] = [];
  for (const f of formulas) {
    const costThen = then === null ? f.totalCost : costAt(f.batchSize, f.ingredients, thenOf);
    const moved = costChange(f, { cost: costThen, priceOf: thenOf }, { cost: costAt(f.batchSize, f.ingredients, currentPrice), priceOf: currentPrice });
    if (moved) changes.push(moved);
  }
  return changes.sort(byLargestMove);
}

/** Σ percent/100 × price, 2 decimals: recost.ts's costPerTonAt over rows that carry their price. */
const perTon = (rows: readonly { percent: number; price: number }[]): number => costPerTonAt(rows as SavedRow[], savedPrice);
const savedPrice = (_: string, row: SavedRow) => row.price;

export interface FormulaCostMove {
  id: string;
  name: string;
  old_cost: number;
  new_cost: number;
  batch_size: number;
  old_cost_per_ton: number;
  new_cost_per_ton: number;
}

/** One line as `[formulaId, formulaName, batchSize, percent, ingredient, currentPrice]`, by formula then position. */
export type MoveLine = [string, string, number, number, string, number];

/**
 * The formulas whose cost moves at 2 decimals when `ingredient` went from `oldPrice` to its current
 * price, from the lines of the formulas that use it.
 * @example movesOf(lines, "Maize", 228) // [{ id: "broiler-starter", name, old_cost: 612.44, new_cost: 618.9, batch_size: 2000, old_cost_per_ton: 306.22, new_cost_per_ton: 309.45 }]
 */
export function movesOf(lines: readonly MoveLine[], ingredient: string, oldPrice: number): FormulaCostMove[] {
  const moves: FormulaCostMove[] = [];
  for (let start = 0; start < lines.length; ) {
    const [id, name, batchSize] = lines[start]!;
    let end = start;
    while (end < lines.length && lines[end]![0] === id) end++;
    const rows = lines.slice(start, end);
    const oldRows = rows.map(([, , , percent, line, price]) => ({ percent, batchSize, price: line === ingredient ? oldPrice : price }));
    const newRows = rows.map(([, , , percent, , price]) => ({ percent, batchSize, price }));
    const oldCost = totalCostOf(oldRows);
    const newCost = totalCostOf(newRows);
    if (round(newCost - oldCost, 2) !== 0) {
      moves.push({ id, name, old_cost: oldCost, new_cost: newCost, batch_size: batchSize, old_cost_per_ton: perTon(oldRows), new_cost_per_ton: perTon(newRows) });
    }
    start = end;
  }
  return moves;
}
