/**
 * The savings worklist of formulation packages: every formula optimized at today's prices and stock,
 * the largest saving per ton first, infeasible formulas and those the solver could not answer last
 * (docs/decisions.md#least-cost-formulation). Each formula is its own solve, so one formula the solver
 * gives up on, or that runs past the time limit, is one row saying so, and the others are answered.
 */
import { totalCostOf } from "../domain/formula-math.ts";
import type { SavingsItem } from "../schemas/optimize.ts";
import type { FormulaDetail } from "../schemas/formulas.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { optimizeInput } from "./optimize-task.ts";
import { NO_OPTIONS, type OptimizeOptions } from "./result.ts";
import { compositionViolations } from "../domain/violations.ts";
import { SolverFailure, SolverUnavailable, TIME_LIMIT_EXCEEDED } from "./solver-errors.ts";
import type { Solve } from "./tasks.ts";
import { ValidationError } from "../domain/errors.ts";

/** Why one formula has no answer; anything else (a full queue, a bug) fails the whole worklist. */
function rowProblem(error: unknown): string | null {
  if (error instanceof SolverUnavailable && error.message === TIME_LIMIT_EXCEEDED) return error.message;
  if (error instanceof SolverFailure || error instanceof ValidationError) return error.message;
  return null;
}

/**
 * `parallel` solves at a time (the pool's size: more would only wait in its queue); `options` for every
 * formula (candidates=all: everyIngredient). Rows whose saved mix misses its own limits stay in the ranking, marked.
 * @example await savingsWorklist(pool.run, await listFormulaDetails(ws), (name) => byName.get(name) ?? null, 1) // [{ id, name, ..., saving: { perBatch, perTon, percent } }]
 */
export async function savingsWorklist(solve: Solve, formulas: readonly FormulaDetail[], lookup: (name: string) => IngredientDetail | null, parallel = 1, options: OptimizeOptions = NO_OPTIONS): Promise<SavingsItem[]> {
  const items: SavingsItem[] = new Array(formulas.length);
  const one = async (f: FormulaDetail): Promise<SavingsItem> => {
    const head = { id: f.id, name: f.name, species: f.species, subcategory: f.subcategory };
    // The saved mix judged with today's nutrient values, as the optimized one is: a saving of a mix that misses its limits says so.
    const violations = compositionViolations(f.ingredients, (name) => lookup(name)?.nutrients ?? {}, f.constraints);
    const judged = { savedMeetsLimits: violations.length === 0, violations };
    try {
      const result = await solve("optimize", optimizeInput(f, lookup, options));
      return { ...head, status: result.status, cost: result.current.cost, optimizedCost: result.optimized?.cost ?? null, saving: result.saving, ...judged };
    } catch (error) {
      const message = rowProblem(error);
      if (message === null) throw error;
      const cost = totalCostOf(f.ingredients.map((r) => ({ percent: r.percent, price: lookup(r.name)?.price ?? r.price, batchSize: f.batchSize })));
      return { ...head, status: "error", message, cost, optimizedCost: null, saving: null, ...judged };
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < formulas.length) {
      const i = next++;
      items[i] = await one(formulas[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, formulas.length)) }, lane));
  const rank = (i: SavingsItem) => (i.saving === null ? -Infinity : i.saving.perTon);
  const unanswered = (i: SavingsItem) => (i.status === "error" ? 1 : 0);
  return items.sort((a, b) => rank(b) - rank(a) || unanswered(a) - unanswered(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
