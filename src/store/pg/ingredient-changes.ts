/** PostgreSQL's statements for ../ingredient-changes.ts. */
import type { IngredientChangeStatements } from "../ingredient-rows.ts";
import type { PgStatements } from "../op.ts";
import { lockOutbox } from "./events.ts";
import { lockIngredient } from "./ingredients.ts";

export const pgIngredientChanges: PgStatements<IngredientChangeStatements> = {
  lockOutbox,
  // An admin import changes prices under its row locks without the outbox lock: the row lock waits for
  // it, so the price read as "before" is the one this change replaces.
  lockedIngredient: lockIngredient,
  insertIngredient: async (sql, workspaceId, input, createdAt, updatedAt) => {
    await sql`INSERT INTO ingredients (workspace_id, name, category, price, in_stock, co2e, nutrients, nutrient_count, created_at, updated_at)
      VALUES (${workspaceId}, ${input.name}, ${input.category}, ${input.price}, ${input.inStock ? 1 : 0}, ${input.co2e ?? null}, ${JSON.stringify(input.nutrients)}, ${Object.keys(input.nutrients).length}, ${createdAt}, ${updatedAt})`;
  },
  setPrice: async (sql, workspaceId, name, point, co2e, now) => {
    await sql`UPDATE ingredients SET price = ${point.price}, in_stock = ${point.inStock ? 1 : 0}, co2e = ${co2e}, updated_at = ${now}
      WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  },
};
