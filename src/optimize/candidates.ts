/**
 * Which ingredients a formula's optimization may use (docs/decisions.md#answers-a-formulator-can-trust):
 * the formula's composition, the ingredients its inclusion limits name, `include`, and every ingredient
 * given a what-if price (a price for an ingredient the solve would not look at is a question about it);
 * with `candidates=all`, every other ingredient of the workspace too, in stock unless out-of-stock
 * ones are let in. An out-of-stock ingredient that is a candidate on the formula's own account stays
 * one (held at 0, listed as never entering); one that `all` alone would add is left out altogether.
 */
import { candidateNames } from "./model.ts";

export type CandidateSet = "formula" | "all";

export interface CandidateOptions {
  include: readonly string[];
  prices: ReadonlyMap<string, number>;
  includeOutOfStock: boolean;
  /** candidates=all: the workspace's other ingredients (see everyIngredient). */
  others?: readonly string[];
}

/**
 * The candidate names in the order the answer lists them, each once.
 * @example candidateNamesOf({ ingredients: [{ name: "Maize" }], constraints: { ingredients: [] } }, { include: [], prices: new Map([["Barley", 200]]), includeOutOfStock: false }) // ["Maize", "Barley"]
 */
export function candidateNamesOf(
  formula: { ingredients: ReadonlyArray<{ name: string }>; constraints: { ingredients: ReadonlyArray<{ name: string }> } },
  options: CandidateOptions,
): string[] {
  return candidateNames(
    formula.ingredients.map((r) => r.name),
    formula.constraints.ingredients.map((c) => c.name),
    [...options.include, ...options.prices.keys(), ...(options.others ?? [])],
  );
}

/**
 * The options for candidates=all: every ingredient of the workspace joins, an out-of-stock one only
 * when `includeOutOfStock` lets it in.
 * @example everyIngredient(NO_OPTIONS, [{ name: "Barley", inStock: true }, { name: "Rye", inStock: false }]).others // ["Barley"]
 */
export function everyIngredient<T extends CandidateOptions>(options: T, ingredients: ReadonlyArray<{ name: string; inStock: boolean }>): T {
  return { ...options, others: ingredients.filter((i) => i.inStock || options.includeOutOfStock).map((i) => i.name) };
}
