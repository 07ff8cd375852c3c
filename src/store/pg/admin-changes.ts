/**
 * PostgreSQL's twins of the changes only admin commands make (in ../formulas.ts and
 * ../ingredient-changes.ts): saving and deleting formulas, deleting an ingredient.
 */
import type { SQL } from "bun";
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { FormulaDetail } from "../../schemas/formulas.ts";
import { ingredientInUse, usedByPlans } from "../admin-rules.ts";
import { plansUsing } from "./plans.ts";
import { requireIngredient } from "./ingredients.ts";

/**
 * Store a formula with its lines, replacing any formula with that id; inside the caller's transaction.
 * @example await saveFormula(tx, 1, detail)
 */
export async function saveFormula(sql: SQL, workspaceId: number, f: FormulaDetail): Promise<void> {
  await sql`DELETE FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${f.id}`;
  await sql`INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints)
    VALUES (${workspaceId}, ${f.id}, ${f.name}, ${f.species}, ${f.subcategory}, ${f.batchSize}, ${f.totalCost}, ${f.createdAt}, ${JSON.stringify(f.nutrients)}, ${JSON.stringify(f.constraints)})`;
  if (f.ingredients.length === 0) return;
  const lines = f.ingredients.map((row, position) => ({
    workspace_id: workspaceId,
    formula_id: f.id,
    position,
    ingredient: row.name,
    percent: row.percent,
    amount: row.amount,
    price: row.price,
    cost: row.cost,
  }));
  await sql`INSERT INTO formula_lines ${sql(lines)}`;
}

/** @example await deleteFormula(tx, 1, "broiler-starter") // NotFoundError for an unknown id */
export async function deleteFormula(sql: SQL, workspaceId: number, id: string): Promise<void> {
  const plans = await plansUsing(sql, workspaceId, { formula: id });
  if (plans.length > 0) throw new ConflictError(usedByPlans(`Formula ${id}`, plans));
  // Lines go with their formula (ON DELETE CASCADE).
  const rows = await sql`DELETE FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`;
  if (rows.length === 0) throw new NotFoundError(`Formula not found: ${id}`);
}

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
