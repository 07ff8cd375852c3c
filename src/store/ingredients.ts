import type { Database } from "bun:sqlite";
import { filterValues, orNotFound, stockFlags, toDetail, type DetailRow, type IngredientDetail, type IngredientFilters, type IngredientListItem, type PriceEntry } from "./ingredient-rows.ts";

export type { IngredientDetail, IngredientFilters, IngredientListItem, PriceEntry } from "./ingredient-rows.ts";

// Names order case-insensitively, ties by exact bytes (docs/decisions.md#http).
const ORDER = "ORDER BY name COLLATE NOCASE, name";
const FILTER = "workspace_id = ?1 AND (?2 IS NULL OR category = ?2) AND (?3 IS NULL OR in_stock = ?3)";

/** @example listIngredients(db, 1, { category: "Cereals" }) */
export function listIngredients(db: Database, workspaceId: number, filters: IngredientFilters = {}): IngredientListItem[] {
  const rows = db
    .query(`SELECT name, category, price, in_stock AS inStock, nutrient_count AS nutrients FROM ingredients WHERE ${FILTER} ${ORDER}`)
    .all(workspaceId, ...filterValues(filters)) as (Omit<IngredientListItem, "inStock"> & { inStock: number })[];
  return stockFlags<IngredientListItem>(rows);
}

/** @example listPrices(db, 1) // [{ name, price, inStock, category }] */
export function listPrices(db: Database, workspaceId: number, filters: IngredientFilters = {}): PriceEntry[] {
  const rows = db
    .query(`SELECT name, price, in_stock AS inStock, category FROM ingredients WHERE ${FILTER} ${ORDER}`)
    .all(workspaceId, ...filterValues(filters)) as (Omit<PriceEntry, "inStock"> & { inStock: number })[];
  return stockFlags<PriceEntry>(rows);
}

/** Every category of the workspace, whatever the filters. @example listPools(db, 1) // ["Cereals", "Minerals"] */
export function listPools(db: Database, workspaceId: number): string[] {
  return (
    db.query("SELECT DISTINCT category FROM ingredients WHERE workspace_id = ? ORDER BY category COLLATE NOCASE, category").all(workspaceId) as {
      category: string;
    }[]
  ).map((r) => r.category);
}

const DETAIL = `SELECT name, category, price, in_stock AS inStock, co2e, nutrients, created_at AS createdAt, updated_at AS updatedAt FROM ingredients`;

/** @example findIngredient(db, 1, "Soybean meal 48%") // IngredientDetail | null */
export function findIngredient(db: Database, workspaceId: number, name: string): IngredientDetail | null {
  const row = db.query(`${DETAIL} WHERE workspace_id = ? AND name = ?`).get(workspaceId, name) as DetailRow | null;
  return row ? toDetail(row) : null;
}

/** @example requireIngredient(db, 1, "Maize") // throws NotFoundError("Ingredient not found: Maize") */
export function requireIngredient(db: Database, workspaceId: number, name: string): IngredientDetail {
  return orNotFound(findIngredient(db, workspaceId, name), name);
}

/** Every ingredient in full, in list order (the export). @example listIngredientDetails(db, 1)[0].nutrients */
export function listIngredientDetails(db: Database, workspaceId: number): IngredientDetail[] {
  return (db.query(`${DETAIL} WHERE workspace_id = ? ${ORDER}`).all(workspaceId) as DetailRow[]).map(toDetail);
}
