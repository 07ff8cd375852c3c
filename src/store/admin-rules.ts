/** Refusals both backends' admin changes share, worded once. */

/**
 * Why an ingredient cannot be deleted while saved formulas use it: their figures would point at nothing.
 * @example ingredientInUse("Maize", ["broiler-starter"]) // "Ingredient Maize is used by 1 formula: broiler-starter (delete or re-import them first)"
 */
export const ingredientInUse = (name: string, users: readonly string[]): string =>
  `Ingredient ${name} is used by ${users.length} formula${users.length === 1 ? "" : "s"}: ${users.join(", ")} (delete or re-import them first)`;

/**
 * Why a formula or an ingredient cannot be deleted while production plans name it (a line's formula, a
 * supply row's ingredient): the plan would point at nothing.
 * @example usedByPlans("Formula broiler-starter", ["december"]) // "Formula broiler-starter is used by 1 plan: december (delete or change it first)"
 */
export const usedByPlans = (what: string, plans: readonly string[]): string =>
  `${what} is used by ${plans.length} plan${plans.length === 1 ? "" : "s"}: ${plans.join(", ")} (delete or change ${plans.length === 1 ? "it" : "them"} first)`;

/** The statements of src/store/ingredient-delete.ts, each dialect's in src/store/sqlite/ingredient-delete.ts and src/store/pg/ingredient-delete.ts. */
export interface IngredientDeleteStatements {
  /** The ingredient's row and its price history (no foreign key: see migration 7), in every table the dialect keeps it in. */
  deleteIngredientRows(workspaceId: number, name: string): void;
}
