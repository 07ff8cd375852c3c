/** Deleting an ingredient (an admin clean-up), written once over src/store/sqlite/ingredient-delete.ts and src/store/pg/ingredient-delete.ts. */
import { ConflictError } from "../domain/errors.ts";
import { ingredientInUse, usedByPlans, type IngredientDeleteStatements } from "./admin-rules.ts";
import { formulasUsing } from "./formulas.ts";
import { requireIngredient } from "./ingredients.ts";
import { operation, statements, tx } from "./op.ts";
import { pgIngredientDelete } from "./pg/ingredient-delete.ts";
import { plansUsing } from "./plans.ts";
import { sqliteIngredientDelete } from "./sqlite/ingredient-delete.ts";

const q = statements<IngredientDeleteStatements>(sqliteIngredientDelete, pgIngredientDelete);

/**
 * Delete an ingredient and its price history (no event, the API has no delete). Refused while a saved
 * formula uses it, naming the formulas, since their figures would then point at nothing, or a plan names it.
 * @example deleteIngredient(db, 1, "Maize") // ConflictError("Ingredient Maize is used by 2 formulas: broiler-starter, layer-phase-1 ...")
 */
export const deleteIngredient = operation(function* (workspaceId: number, name: string) {
  yield* tx.requireTransaction("deleteIngredient");
  yield* requireIngredient.steps(workspaceId, name);
  const users = yield* formulasUsing.steps(workspaceId, name);
  if (users.length > 0) throw new ConflictError(ingredientInUse(name, users));
  const plans = yield* plansUsing.steps(workspaceId, { ingredient: name });
  if (plans.length > 0) throw new ConflictError(usedByPlans(`Ingredient ${name}`, plans));
  yield* q.deleteIngredientRows(workspaceId, name);
});
