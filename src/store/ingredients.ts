import type { Database } from "bun:sqlite";
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import type { CreateIngredient } from "../schemas/ingredients.ts";
import { formulasMovedBy } from "./costs.ts";
import { recordEvent } from "./events.ts";
import { formulasUsing } from "./formulas.ts";
import { recordChange, recordPrice, type PriceSource } from "./price-history.ts";
import { requireTransaction } from "./transaction.ts";

/** The list view: nutrients is the number of nutrients (the spec's list item). */
export interface IngredientListItem {
  name: string;
  category: string;
  price: number;
  inStock: boolean;
  nutrients: number;
}

export interface PriceEntry {
  name: string;
  price: number;
  inStock: boolean;
  category: string;
}

export interface IngredientDetail {
  name: string;
  category: string;
  price: number;
  inStock: boolean;
  nutrients: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

/** Optional, additive list filters (exact, case-sensitive matches). */
export interface IngredientFilters {
  category?: string | undefined;
  inStock?: boolean | undefined;
}

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

export interface Actor {
  workspaceId: number;
  keyId: string | null;
  now: string;
}

/**
 * Create an ingredient, its first price-history entry and its `ingredient.added` event, inside the
 * caller's transaction.
 * @example createIngredient(db, { workspaceId: 1, keyId, now }, { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: {} })
 */
export function createIngredient(db: Database, actor: Actor, input: CreateIngredient): IngredientDetail {
  requireTransaction(db, "createIngredient");
  if (findIngredient(db, actor.workspaceId, input.name)) throw new ConflictError(`Ingredient already exists: ${input.name}`);
  insertIngredient(db, actor.workspaceId, input, "api", actor.now);
  recordEvent(db, {
    workspaceId: actor.workspaceId,
    type: "ingredient.added",
    ingredient: input.name,
    payload: { ingredient: input.name, category: input.category, price: input.price, timestamp: actor.now },
    keyId: actor.keyId,
    now: actor.now,
  });
  return requireIngredient(db, actor.workspaceId, input.name);
}

/**
 * Insert with its first price-history entry (at `now`, its updatedAt) and no event (imports fire
 * none). Call inside a transaction.
 */
export function insertIngredient(db: Database, workspaceId: number, input: CreateIngredient, source: PriceSource, now: string, createdAt = now): void {
  db.query(
    `INSERT INTO ingredients (workspace_id, name, category, price, in_stock, nutrients, nutrient_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(workspaceId, input.name, input.category, input.price, input.inStock ? 1 : 0, JSON.stringify(input.nutrients), Object.keys(input.nutrients).length, createdAt, now);
  recordPrice(db, workspaceId, input.name, { price: input.price, inStock: input.inStock, at: now, source });
}

/**
 * Set a price (and optionally the stock flag), inside the caller's transaction with what it causes: a history
 * entry unless price and stock are both repeated; when the price changes, `price.updated` and, if
 * the current cost of a saved formula moves, `formula.cost_changed` (the same ingredient, so one
 * order per webhook covers both).
 * @example updatePrice(db, actor, "Maize", { price: 219, inStock: true })
 */
export function updatePrice(db: Database, actor: Actor, name: string, change: { price: number; inStock?: boolean | undefined }): IngredientDetail {
  requireTransaction(db, "updatePrice");
  const before = requireIngredient(db, actor.workspaceId, name);
  const after = { price: change.price, inStock: change.inStock ?? before.inStock };
  db.query("UPDATE ingredients SET price = ?, in_stock = ?, updated_at = ? WHERE workspace_id = ? AND name = ?").run(
    after.price,
    after.inStock ? 1 : 0,
    actor.now,
    actor.workspaceId,
    name,
  );
  recordChange(db, actor.workspaceId, name, before, after, actor.now, "api");
  if (change.price !== before.price) {
    const event = { workspaceId: actor.workspaceId, ingredient: name, keyId: actor.keyId, now: actor.now };
    const prices = { ingredient: name, old_price: before.price, new_price: change.price };
    recordEvent(db, { ...event, type: "price.updated", payload: { ...prices, timestamp: actor.now } });
    const formulas = formulasMovedBy(db, actor.workspaceId, name, before.price);
    if (formulas.length > 0) recordEvent(db, { ...event, type: "formula.cost_changed", payload: { ...prices, formulas, timestamp: actor.now } });
  }
  return requireIngredient(db, actor.workspaceId, name);
}

/** Every ingredient in full, in list order (the export). @example listIngredientDetails(db, 1)[0].nutrients */
export function listIngredientDetails(db: Database, workspaceId: number): IngredientDetail[] {
  return (db.query(`${DETAIL} WHERE workspace_id = ? ${ORDER}`).all(workspaceId) as DetailRow[]).map(toDetail);
}

/**
 * Delete an ingredient (admin clean-up; no event, the API has no delete). Refused while a saved
 * formula uses it, naming the formulas, since their figures would then point at nothing.
 * @example deleteIngredient(db, 1, "Maize") // ConflictError("Ingredient Maize is used by 2 formulas: broiler-starter, layer-phase-1 ...")
 */
export function deleteIngredient(db: Database, workspaceId: number, name: string): void {
  requireTransaction(db, "deleteIngredient");
  requireIngredient(db, workspaceId, name);
  const users = formulasUsing(db, workspaceId, name);
  if (users.length > 0) {
    throw new ConflictError(
      `Ingredient ${name} is used by ${users.length} formula${users.length === 1 ? "" : "s"}: ${users.join(", ")} (delete or re-import them first)`,
    );
  }
  db.query("DELETE FROM ingredients WHERE workspace_id = ? AND name = ?").run(workspaceId, name);
}
