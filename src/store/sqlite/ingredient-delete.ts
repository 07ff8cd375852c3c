/** SQLite's statements for src/store/ingredient-delete.ts. */
import type { IngredientDeleteStatements } from "../admin-rules.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteIngredientDelete: SqliteStatements<IngredientDeleteStatements> = {
  deleteIngredientRows: (db, workspaceId, name) => {
    // SQLite keeps history in two tables (price_log beside price_history).
    for (const table of ["price_history", "price_log"]) {
      db.query(`DELETE FROM ${table} WHERE ingredient_id = (SELECT id FROM ingredients WHERE workspace_id = ? AND name = ?)`).run(workspaceId, name);
    }
    db.query("DELETE FROM ingredients WHERE workspace_id = ? AND name = ?").run(workspaceId, name);
  },
};
