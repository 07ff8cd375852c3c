import type { Database } from "bun:sqlite";
import type { z } from "zod";
import { NotFoundError } from "../domain/errors.ts";
import type { ingredientQuery } from "../schemas/ingredients.ts";
import type * as R from "../schemas/responses.ts";

/** The list view: nutrients is the number of nutrients (the spec's list item). */
export type IngredientListItem = z.output<typeof R.ingredientListItem>;
export type PriceEntry = z.output<typeof R.priceEntry>;
export type IngredientDetail = z.output<typeof R.ingredientDetail>;

/** Optional, additive list filters (exact, case-sensitive matches): the list's query, as validated. */
export type IngredientFilters = Partial<z.output<typeof ingredientQuery>>;

// Names order case-insensitively, ties by exact bytes (docs/decisions.md#http).
const ORDER = "ORDER BY name COLLATE NOCASE, name";
const FILTER = "workspace_id = ?1 AND (?2 IS NULL OR category = ?2) AND (?3 IS NULL OR in_stock = ?3)";
const filterArgs = (workspaceId: number, f: IngredientFilters) =>
  [workspaceId, f.category ?? null, f.inStock === undefined ? null : f.inStock ? 1 : 0] as const;

/** @example listIngredients(db, 1, { category: "Cereals" }) */
export function listIngredients(db: Database, workspaceId: number, filters: IngredientFilters = {}): IngredientListItem[] {
  const rows = db
    .query(`SELECT name, category, price, in_stock AS inStock, nutrient_count AS nutrients FROM ingredients WHERE ${FILTER} ${ORDER}`)
    .all(...filterArgs(workspaceId, filters)) as (Omit<IngredientListItem, "inStock"> & { inStock: number })[];
  for (const r of rows) (r as unknown as IngredientListItem).inStock = r.inStock === 1;
  return rows as unknown as IngredientListItem[];
}

/** @example listPrices(db, 1) // [{ name, price, inStock, category }] */
export function listPrices(db: Database, workspaceId: number, filters: IngredientFilters = {}): PriceEntry[] {
  const rows = db
    .query(`SELECT name, price, in_stock AS inStock, category FROM ingredients WHERE ${FILTER} ${ORDER}`)
    .all(...filterArgs(workspaceId, filters)) as (Omit<PriceEntry, "inStock"> & { inStock: number })[];
  for (const r of rows) (r as unknown as PriceEntry).inStock = r.inStock === 1;
  return rows as unknown as PriceEntry[];
}

/** Every category of the workspace, whatever the filters. @example listPools(db, 1) // ["Cereals", "Minerals"] */
export function listPools(db: Database, workspaceId: number): string[] {
  return (
    db.query("SELECT DISTINCT category FROM ingredients WHERE workspace_id = ? ORDER BY category COLLATE NOCASE, category").all(workspaceId) as {
      category: string;
    }[]
  ).map((r) => r.category);
}

interface DetailRow {
  name: string;
  category: string;
  price: number;
  inStock: number;
  nutrients: string;
  createdAt: string;
  updatedAt: string;
}
const DETAIL = `SELECT name, category, price, in_stock AS inStock, nutrients, created_at AS createdAt, updated_at AS updatedAt FROM ingredients`;
const toDetail = (r: DetailRow): IngredientDetail => ({ ...r, inStock: r.inStock === 1, nutrients: JSON.parse(r.nutrients) });

/** @example findIngredient(db, 1, "Soybean meal 48%") // IngredientDetail | null */
export function findIngredient(db: Database, workspaceId: number, name: string): IngredientDetail | null {
  const row = db.query(`${DETAIL} WHERE workspace_id = ? AND name = ?`).get(workspaceId, name) as DetailRow | null;
  return row ? toDetail(row) : null;
}

/** @example requireIngredient(db, 1, "Maize") // throws NotFoundError("Ingredient not found: Maize") */
export function requireIngredient(db: Database, workspaceId: number, name: string): IngredientDetail {
  const found = findIngredient(db, workspaceId, name);
  if (!found) throw new NotFoundError(`Ingredient not found: ${name}`);
  return found;
}

/** Every ingredient in full, in list order (the export). @example listIngredientDetails(db, 1)[0].nutrients */
export function listIngredientDetails(db: Database, workspaceId: number): IngredientDetail[] {
  return (db.query(`${DETAIL} WHERE workspace_id = ? ${ORDER}`).all(workspaceId) as DetailRow[]).map(toDetail);
}
