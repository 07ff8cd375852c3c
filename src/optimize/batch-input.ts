/**
 * The plain-data input of a batch sheet from a saved formula and the workspace's ingredients (today's
 * prices and nutrients); shared by the route and `feedbase formula batch`.
 */
import type { BatchScales } from "./batch-params.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import type { BatchSheetInput } from "./batch-sheet.ts";

/**
 * A composition row whose ingredient is gone keeps the price and no nutrients it was saved with.
 * @example await batchInput(formula, { size: 2000, resolution: 0.5, micro: null }, (name) => store.findIngredient(ws, name))
 */
export async function batchInput(formula: FormulaDetail, scales: BatchScales, find: (name: string) => IngredientDetail | null | Promise<IngredientDetail | null>): Promise<BatchSheetInput> {
  const rows: BatchSheetInput["rows"][number][] = [];
  for (const r of formula.ingredients) {
    const found = await find(r.name);
    rows.push({ name: r.name, percent: r.percent, price: found?.price ?? r.price, nutrients: found?.nutrients ?? {} });
  }
  return { id: formula.id, name: formula.name, ...scales, rows, constraints: formula.constraints };
}
