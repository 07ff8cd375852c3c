/** PostgreSQL's twin of a change only admin commands make (in ../ingredient-changes.ts): deleting an ingredient. */
import type { SQL } from "bun";
import { ConflictError } from "../../domain/errors.ts";
import { ingredientInUse, usedByPlans } from "../admin-rules.ts";
import { plansUsing } from "../plans.ts";
import { requireIngredient } from "../ingredients.ts";

/**
 * Delete an ingredient and its price history; refused while a saved formula uses it (named).
 * @example await deleteIngredient(tx, 1, "Maize")
 */
export async function deleteIngredient(sql: SQL, workspaceId: number, name: string): Promise<void> {
  await requireIngredient(sql, workspaceId, name);
  const users = (
    (await sql`SELECT DISTINCT formula_id AS id FROM formula_lines WHERE workspace_id = ${workspaceId} AND ingredient = ${name} ORDER BY formula_id`) as { id: string }[]
  ).map((r) => r.id);
  if (users.length > 0) throw new ConflictError(ingredientInUse(name, users));
  const plans = await plansUsing(sql, workspaceId, { ingredient: name });
  if (plans.length > 0) throw new ConflictError(usedByPlans(`Ingredient ${name}`, plans));
  await sql`DELETE FROM price_history WHERE ingredient_id = (SELECT id FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name})`;
  await sql`DELETE FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`;
}
