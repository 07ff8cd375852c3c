/** SQLite's statements for the reads of src/store/ingredients.ts. */
import type { DetailRow, IngredientStatements } from "../ingredient-rows.ts";
import type { SqliteStatements } from "../op.ts";

// Names order case-insensitively, ties by exact bytes (docs/decisions.md#http).
const ORDER = "ORDER BY name COLLATE NOCASE, name";
const FILTER = "workspace_id = ?1 AND (?2 IS NULL OR category = ?2) AND (?3 IS NULL OR in_stock = ?3)";
const DETAIL = `SELECT name, category, price, in_stock AS inStock, co2e, nutrients, created_at AS createdAt, updated_at AS updatedAt FROM ingredients`;

export const sqliteIngredients: SqliteStatements<IngredientStatements> = {
  listItems: (db, workspaceId, category, inStock) =>
    db.query(`SELECT name, category, price, in_stock AS inStock, nutrient_count AS nutrients FROM ingredients WHERE ${FILTER} ${ORDER}`).all(workspaceId, category, inStock) as ReturnType<
      IngredientStatements["listItems"]
    >,
  prices: (db, workspaceId, category, inStock) =>
    db.query(`SELECT name, price, in_stock AS inStock, category FROM ingredients WHERE ${FILTER} ${ORDER}`).all(workspaceId, category, inStock) as ReturnType<IngredientStatements["prices"]>,
  categories: (db, workspaceId) =>
    (db.query("SELECT DISTINCT category FROM ingredients WHERE workspace_id = ? ORDER BY category COLLATE NOCASE, category").all(workspaceId) as { category: string }[]).map(
      (r) => r.category,
    ),
  detail: (db, workspaceId, name) => db.query(`${DETAIL} WHERE workspace_id = ? AND name = ?`).get(workspaceId, name) as DetailRow | null,
  named: (db, workspaceId, names) => db.query(`${DETAIL} WHERE workspace_id = ? AND name IN (SELECT value FROM json_each(?))`).all(workspaceId, JSON.stringify(names)) as DetailRow[],
  details: (db, workspaceId) => db.query(`${DETAIL} WHERE workspace_id = ? ${ORDER}`).all(workspaceId) as DetailRow[],
};
