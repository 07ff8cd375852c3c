/**
 * Changes to ingredients, each inside its owner's transaction with what it causes (price history,
 * events); the reads are in ingredients.ts.
 */
import type { Database } from "bun:sqlite";
import { ConflictError } from "../domain/errors.ts";
import { addedEvent, co2eAfter, priceAfter, priceEvents, type Actor, type PriceChange, type PricePoint } from "../domain/ingredient-events.ts";
import type { CreateIngredient } from "../schemas/ingredients.ts";
import { formulasMovedBy } from "./costs.ts";
import { hasSubscriber } from "./deliveries.ts";
import { recordEvent } from "./events.ts";
import { findIngredient, requireIngredient, type IngredientDetail } from "./ingredients.ts";
import { recordChange, recordPrice, type PriceSource } from "./price-history.ts";
import { requireTransaction } from "./transaction.ts";

export type { Actor } from "../domain/ingredient-events.ts";

/**
 * Create an ingredient, its first price-history entry and its `ingredient.added` event, inside the
 * caller's transaction.
 * @example createIngredient(db, { workspaceId: 1, keyId, now }, { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: {} })
 */
export function createIngredient(db: Database, actor: Actor, input: CreateIngredient): IngredientDetail {
  requireTransaction(db, "createIngredient");
  if (findIngredient(db, actor.workspaceId, input.name)) throw new ConflictError(`Ingredient already exists: ${input.name}`);
  insertIngredient(db, actor.workspaceId, input, "api", actor.now);
  recordEvent(db, addedEvent(actor, input));
  return requireIngredient(db, actor.workspaceId, input.name);
}

/**
 * Insert with its first price-history entry (at `now`, its updatedAt) and no event (an import records
 * its `ingredient.added` itself, unless told to fire none). Call inside a transaction.
 */
export function insertIngredient(db: Database, workspaceId: number, input: CreateIngredient, source: PriceSource, now: string, createdAt = now): void {
  db.query(
    `INSERT INTO ingredients (workspace_id, name, category, price, in_stock, co2e, nutrients, nutrient_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(workspaceId, input.name, input.category, input.price, input.inStock ? 1 : 0, input.co2e ?? null, JSON.stringify(input.nutrients), Object.keys(input.nutrients).length, createdAt, now);
  recordPrice(db, workspaceId, input.name, { price: input.price, inStock: input.inStock, at: now, source });
}

/**
 * Set a price (and optionally the stock flag and, from PUT /v1/ingredients/:name, the footprint: absent keeps it), inside the caller's transaction with what it causes: a history
 * entry unless price and stock are both repeated; when the price changes, `price.updated` and, if
 * the current cost of a saved formula moves and a webhook asked for it, `formula.cost_changed` (the
 * same ingredient, so one order per webhook covers both).
 * @example updatePrice(db, actor, "Maize", { price: 219, inStock: true })
 */
export function updatePrice(db: Database, actor: Actor, name: string, change: PriceChange): IngredientDetail {
  requireTransaction(db, "updatePrice");
  const before = requireIngredient(db, actor.workspaceId, name);
  const after = priceAfter(before, change);
  const co2e = co2eAfter(before, change);
  db.query("UPDATE ingredients SET price = ?, in_stock = ?, co2e = ?, updated_at = ? WHERE workspace_id = ? AND name = ?").run(
    after.price,
    after.inStock ? 1 : 0,
    co2e,
    actor.now,
    actor.workspaceId,
    name,
  );
  recordPriceChange(db, actor, name, before, after, { at: actor.now, source: "api", events: true });
  // What a re-read would return, without reading the nutrients again.
  return { ...before, ...after, co2e, updatedAt: actor.now };
}

/**
 * What a change of price or stock causes, inside its transaction: a history entry at `at` unless price
 * and stock both repeat; when the price moved and `events`, `price.updated` and, if the current cost of
 * a saved formula moves and a webhook asked for it, `formula.cost_changed` (the same ingredient, so
 * one order per webhook covers both). The API's PUT and the imports share it, so they fire the same.
 * @example recordPriceChange(db, actor, "Maize", before, after, { at: actor.now, source: "api", events: true })
 */
export function recordPriceChange(db: Database, actor: Actor, name: string, before: PricePoint, after: PricePoint, how: { at: string; source: PriceSource; events: boolean }): void {
  recordChange(db, actor.workspaceId, name, before, after, how.at, how.source);
  if (!how.events || after.price === before.price) return;
  const events = priceEvents(actor, name, before.price, after.price);
  recordEvent(db, events.updated);
  // Opt-in and costly (a third of a PUT): recorded only when a webhook can receive it (docs/decisions.md#price-history-and-formula-costs).
  if (hasSubscriber(db, actor.workspaceId, "formula.cost_changed")) {
    const formulas = formulasMovedBy(db, actor.workspaceId, name, before.price);
    if (formulas.length > 0) recordEvent(db, events.costChanged(formulas));
  }
}
