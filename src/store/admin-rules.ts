/** Refusals both backends' admin changes share, worded once. */

/**
 * Why an ingredient cannot be deleted while saved formulas use it: their figures would point at nothing.
 * @example ingredientInUse("Maize", ["broiler-starter"]) // "Ingredient Maize is used by 1 formula: broiler-starter (delete or re-import them first)"
 */
export const ingredientInUse = (name: string, users: readonly string[]): string =>
  `Ingredient ${name} is used by ${users.length} formula${users.length === 1 ? "" : "s"}: ${users.join(", ")} (delete or re-import them first)`;
