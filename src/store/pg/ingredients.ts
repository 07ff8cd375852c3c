/**
 * PostgreSQL's statements for the reads of ../ingredients.ts, and `lockIngredient` for its price writes.
 * Names order as SQLite's NOCASE then bytes (docs/decisions.md#serving-from-postgresql): fb_nocase
 * folds A-Z only, the columns compare bytes.
 */
import type { SQL } from "bun";
import { orNotFound, toDetail, type DetailRow, type IngredientDetail, type IngredientStatements } from "../ingredient-rows.ts";
import type { PgStatements } from "../op.ts";
import { unmatchable } from "./text.ts";

/** A DetailRow's columns from the workspace's ingredients, narrowed (and ordered or locked) by `rest`, a fragment. */
async function detailRows(sql: SQL, workspaceId: number, rest: SQL.Query<unknown>): Promise<DetailRow[]> {
  return (await sql`SELECT name, category, price, in_stock AS "inStock", co2e, nutrients, created_at AS "createdAt", updated_at AS "updatedAt"
    FROM ingredients WHERE workspace_id = ${workspaceId} ${rest}`) as DetailRow[];
}

async function selectIngredient(sql: SQL, workspaceId: number, name: string, forUpdate: boolean): Promise<DetailRow | null> {
  if (unmatchable(name)) return null;
  const rows = await detailRows(sql, workspaceId, sql`AND name = ${name} ${forUpdate ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export const pgIngredients: PgStatements<IngredientStatements> = {
  listItems: async (sql, workspaceId, category, inStock) => {
    if (unmatchable(category)) return [];
    return (await sql`SELECT name, category, price, in_stock AS "inStock", nutrient_count AS nutrients FROM ingredients
      WHERE workspace_id = ${workspaceId} AND (${category}::text IS NULL OR category = ${category}) AND (${inStock}::int IS NULL OR in_stock = ${inStock})
      ORDER BY fb_nocase(name), name`) as ReturnType<IngredientStatements["listItems"]>;
  },
  prices: async (sql, workspaceId, category, inStock) => {
    if (unmatchable(category)) return [];
    return (await sql`SELECT name, price, in_stock AS "inStock", category FROM ingredients
      WHERE workspace_id = ${workspaceId} AND (${category}::text IS NULL OR category = ${category}) AND (${inStock}::int IS NULL OR in_stock = ${inStock})
      ORDER BY fb_nocase(name), name`) as ReturnType<IngredientStatements["prices"]>;
  },
  categories: async (sql, workspaceId) =>
    ((await sql`SELECT category FROM ingredients WHERE workspace_id = ${workspaceId}
      GROUP BY category ORDER BY fb_nocase(category), category`) as { category: string }[]).map((r) => r.category),
  detail: (sql, workspaceId, name) => selectIngredient(sql, workspaceId, name, false),
  named: (sql, workspaceId, names) => detailRows(sql, workspaceId, sql`AND name = ANY(${names.filter((n) => !unmatchable(n))}::text[])`),
  details: (sql, workspaceId) => detailRows(sql, workspaceId, sql`ORDER BY fb_nocase(name), name`),
};

/**
 * An ingredient with its row locked until the transaction ends (FOR UPDATE): it waits for a writer
 * holding the row, so what it reads stays the current value while this transaction lasts.
 * @example const before = await lockIngredient(tx, 1, "Maize")
 */
export async function lockIngredient(sql: SQL, workspaceId: number, name: string): Promise<IngredientDetail> {
  const row = await selectIngredient(sql, workspaceId, name, true);
  return orNotFound(row ? toDetail(row) : null, name);
}
