/** PostgreSQL's statements for ../ingredient-delete.ts. */
import type { IngredientDeleteStatements } from "../admin-rules.ts";
import type { PgStatements } from "../op.ts";

export const pgIngredientDelete: PgStatements<IngredientDeleteStatements> = {
  deleteIngredientRows: async (sql, workspaceId, name) => {
    await sql`DELETE FROM price_history WHERE ingredient_id = (SELECT id FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name})`;
    await sql`DELETE FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  },
};
