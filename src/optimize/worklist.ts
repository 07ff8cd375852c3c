/**
 * The savings worklist of formulation packages: every formula optimized at today's prices and stock,
 * the largest saving per ton first, infeasible formulas last (docs/decisions.md#least-cost-formulation).
 */
import type { Highs } from "highs";
import type { SavingsItem } from "../schemas/optimize.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { NO_OPTIONS, optimizeFormula } from "./result.ts";

/** Lets queued requests run between two solves: the worklist never holds the server longer than one solve. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * @example await savingsWorklist(highs, listFormulaDetails(db, ws), (name) => byName.get(name) ?? null) // [{ id, name, ..., saving: { perBatch, perTon, percent } }]
 */
export async function savingsWorklist(highs: Highs, formulas: readonly FormulaDetail[], lookup: (name: string) => IngredientDetail | null): Promise<SavingsItem[]> {
  const items: SavingsItem[] = [];
  for (const f of formulas) {
    const result = optimizeFormula(highs, f, lookup, NO_OPTIONS);
    items.push({
      id: f.id,
      name: f.name,
      species: f.species,
      subcategory: f.subcategory,
      status: result.status,
      cost: result.current.cost,
      optimizedCost: result.optimized?.cost ?? null,
      saving: result.saving,
    });
    await nextTurn();
  }
  const rank = (i: SavingsItem) => (i.saving === null ? -Infinity : i.saving.perTon);
  return items.sort((a, b) => rank(b) - rank(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
