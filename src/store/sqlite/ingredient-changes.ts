/** SQLite's statements for src/store/ingredient-changes.ts. */
import { orNotFound, toDetail, type IngredientChangeStatements } from "../ingredient-rows.ts";
import type { SqliteStatements } from "../op.ts";
import { sqliteIngredients } from "./ingredients.ts";

export const sqliteIngredientChanges: SqliteStatements<IngredientChangeStatements> = {
  lockOutbox: () => {},
  // The write transaction is IMMEDIATE: no other writer until it ends, nothing to lock.
  lockedIngredient: (db, workspaceId, name) => {
    const row = sqliteIngredients.detail(db, workspaceId, name);
    return orNotFound(row ? toDetail(row) : null, name);
  },
  insertIngredient: (db, workspaceId, input, createdAt, updatedAt) => {
    db.query(
      `INSERT INTO ingredients (workspace_id, name, category, price, in_stock, co2e, nutrients, nutrient_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(workspaceId, input.name, input.category, input.price, input.inStock ? 1 : 0, input.co2e ?? null, JSON.stringify(input.nutrients), Object.keys(input.nutrients).length, createdAt, updatedAt);
  },
  setPrice: (db, workspaceId, name, point, co2e, now) => {
    db.query("UPDATE ingredients SET price = ?, in_stock = ?, co2e = ?, updated_at = ? WHERE workspace_id = ? AND name = ?").run(
      point.price,
      point.inStock ? 1 : 0,
      co2e,
      now,
      workspaceId,
      name,
    );
  },
};
