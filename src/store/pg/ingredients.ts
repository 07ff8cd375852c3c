/** PostgreSQL's twins of ../ingredients.ts: same arguments after the connection, same results, same order. */
import type { SQL } from "bun";
import { unmatchable } from "./text.ts";
import { filterValues, orNotFound, stockFlags, toDetail, type DetailRow, type IngredientDetail, type IngredientFilters, type IngredientListItem, type PriceEntry } from "../ingredient-rows.ts";

// Names order as SQLite's NOCASE then bytes (docs/decisions.md#serving-from-postgresql): fb_nocase folds A-Z only, the columns compare bytes.

/** @example await listIngredients(sql, 1, { category: "Cereals" }) */
export async function listIngredients(sql: SQL, workspaceId: number, filters: IngredientFilters = {}): Promise<IngredientListItem[]> {
  const [category, inStock] = filterValues(filters);
  if (unmatchable(category)) return [];
  const rows = await sql`SELECT name, category, price, in_stock AS "inStock", nutrient_count AS nutrients FROM ingredients
    WHERE workspace_id = ${workspaceId} AND (${category}::text IS NULL OR category = ${category}) AND (${inStock}::int IS NULL OR in_stock = ${inStock})
    ORDER BY fb_nocase(name), name`;
  return stockFlags<IngredientListItem>(rows);
}

/** @example await listPrices(sql, 1) // [{ name, price, inStock, category }] */
export async function listPrices(sql: SQL, workspaceId: number, filters: IngredientFilters = {}): Promise<PriceEntry[]> {
  const [category, inStock] = filterValues(filters);
  if (unmatchable(category)) return [];
  const rows = await sql`SELECT name, price, in_stock AS "inStock", category FROM ingredients
    WHERE workspace_id = ${workspaceId} AND (${category}::text IS NULL OR category = ${category}) AND (${inStock}::int IS NULL OR in_stock = ${inStock})
    ORDER BY fb_nocase(name), name`;
  return stockFlags<PriceEntry>(rows);
}

/** Every category of the workspace, whatever the filters. @example await listPools(sql, 1) // ["Cereals", "Minerals"] */
export async function listPools(sql: SQL, workspaceId: number): Promise<string[]> {
  const rows = (await sql`SELECT category FROM ingredients WHERE workspace_id = ${workspaceId}
    GROUP BY category ORDER BY fb_nocase(category), category`) as { category: string }[];
  return rows.map((r) => r.category);
}

/** @example await findIngredient(sql, 1, "Soybean meal 48%") // IngredientDetail | null */
export async function findIngredient(sql: SQL, workspaceId: number, name: string): Promise<IngredientDetail | null> {
  return selectIngredient(sql, workspaceId, name, false);
}

async function selectIngredient(sql: SQL, workspaceId: number, name: string, forUpdate: boolean): Promise<IngredientDetail | null> {
  if (unmatchable(name)) return null;
  const rows = (await sql`SELECT name, category, price, in_stock AS "inStock", co2e, nutrients, created_at AS "createdAt", updated_at AS "updatedAt"
    FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name} ${forUpdate ? sql`FOR UPDATE` : sql``}`) as DetailRow[];
  return rows[0] ? toDetail(rows[0]) : null;
}

/** @example await requireIngredient(sql, 1, "Maize") // throws NotFoundError("Ingredient not found: Maize") */
export async function requireIngredient(sql: SQL, workspaceId: number, name: string): Promise<IngredientDetail> {
  return orNotFound(await findIngredient(sql, workspaceId, name), name);
}

/**
 * {@link requireIngredient} with its row locked until the transaction ends (FOR UPDATE): it waits for a
 * writer holding the row, so what it reads stays the current value while this transaction lasts.
 * @example const before = await lockIngredient(tx, 1, "Maize")
 */
export async function lockIngredient(sql: SQL, workspaceId: number, name: string): Promise<IngredientDetail> {
  return orNotFound(await selectIngredient(sql, workspaceId, name, true), name);
}

/** Every ingredient in full, in list order (the export). @example (await listIngredientDetails(sql, 1))[0].nutrients */
export async function listIngredientDetails(sql: SQL, workspaceId: number): Promise<IngredientDetail[]> {
  const rows = (await sql`SELECT name, category, price, in_stock AS "inStock", co2e, nutrients, created_at AS "createdAt", updated_at AS "updatedAt"
    FROM ingredients WHERE workspace_id = ${workspaceId} ORDER BY fb_nocase(name), name`) as DetailRow[];
  return rows.map(toDetail);
}
