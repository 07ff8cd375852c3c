/** PostgreSQL's twins of the API writes of ../ingredient-changes.ts, each inside the caller's transaction. */
import type { SQL } from "bun";
import { ConflictError } from "../../domain/errors.ts";
import { addedEvent, co2eAfter, priceAfter, priceEvents, type Actor, type PriceChange, type PricePoint } from "../../domain/ingredient-events.ts";
import type { CreateIngredient } from "../../schemas/ingredients.ts";
import type { IngredientDetail } from "../ingredient-rows.ts";
import type { PriceSource } from "../price-history.ts";
import { formulasMovedBy } from "../costs.ts";
import { hasSubscriber } from "../deliveries.ts";
import { recordEvent } from "../events.ts";
import { lockOutbox } from "./events.ts";
import { findIngredient, requireIngredient } from "../ingredients.ts";
import { lockIngredient } from "./ingredients.ts";
import { pipelined } from "./pipelined.ts";
import { recordChange, recordPrice } from "./price-history.ts";

/** SQLSTATE unique_violation: another connection inserted the same name first. */
const UNIQUE_VIOLATION = "23505";

/**
 * Create an ingredient, its first price-history entry and its `ingredient.added` event.
 * @example await createIngredient(tx, { workspaceId: 1, keyId, now }, { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: {} })
 */
export async function createIngredient(sql: SQL, actor: Actor, input: CreateIngredient): Promise<IngredientDetail> {
  await lockOutbox(sql);
  if (await findIngredient(sql, actor.workspaceId, input.name)) throw new ConflictError(`Ingredient already exists: ${input.name}`);
  try {
    await insertIngredient(sql, actor.workspaceId, input, "api", actor.now);
  } catch (error) {
    // An import in another process, which takes no outbox lock, got there between the check and the insert.
    if ((error as { errno?: string }).errno === UNIQUE_VIOLATION) throw new ConflictError(`Ingredient already exists: ${input.name}`);
    throw error;
  }
  await recordEvent(sql, addedEvent(actor, input));
  return requireIngredient(sql, actor.workspaceId, input.name);
}

/** Insert with its first price-history entry and no event (an import records its own). @example await insertIngredient(tx, 1, input, "import", now) */
export async function insertIngredient(sql: SQL, workspaceId: number, input: CreateIngredient, source: PriceSource, now: string, createdAt = now): Promise<void> {
  await sql`INSERT INTO ingredients (workspace_id, name, category, price, in_stock, co2e, nutrients, nutrient_count, created_at, updated_at)
    VALUES (${workspaceId}, ${input.name}, ${input.category}, ${input.price}, ${input.inStock ? 1 : 0}, ${input.co2e ?? null}, ${JSON.stringify(input.nutrients)}, ${Object.keys(input.nutrients).length}, ${createdAt}, ${now})`;
  await recordPrice(sql, workspaceId, input.name, { price: input.price, inStock: input.inStock, at: now, source });
}

/**
 * Set a price (and optionally the stock flag) with what it causes, as ../ingredient-changes.ts does.
 * The outbox lock is taken first, so the price read as "before" cannot change until this commits.
 * @example await updatePrice(tx, actor, "Maize", { price: 219, inStock: true })
 */
export async function updatePrice(sql: SQL, actor: Actor, name: string, change: PriceChange): Promise<IngredientDetail> {
  await lockOutbox(sql);
  // An admin import changes prices under its row locks without the outbox lock: the row lock waits for
  // it, so the price read as "before" is the one this change replaces.
  const before = await lockIngredient(sql, actor.workspaceId, name);
  const after = priceAfter(before, change);
  const co2e = co2eAfter(before, change);
  // None of these needs another's answer: sent together, they share a round trip.
  await pipelined(
    sql`UPDATE ingredients SET price = ${after.price}, in_stock = ${after.inStock ? 1 : 0}, co2e = ${co2e}, updated_at = ${actor.now}
      WHERE workspace_id = ${actor.workspaceId} AND name = ${name}`.execute(),
    recordPriceChange(sql, actor, name, before, after, { at: actor.now, source: "api", events: true }),
  );
  return { ...before, ...after, co2e, updatedAt: actor.now };
}

/**
 * What a change of price or stock causes, as ../ingredient-changes.ts's twin: a history entry at `at`
 * unless both repeat; when the price moved and `events`, `price.updated` and the watched
 * `formula.cost_changed`. The API's PUT and the imports share it, so they fire the same.
 * @example await recordPriceChange(tx, actor, "Maize", before, after, { at: actor.now, source: "import", events: true })
 */
export async function recordPriceChange(sql: SQL, actor: Actor, name: string, before: PricePoint, after: PricePoint, how: { at: string; source: PriceSource; events: boolean }): Promise<void> {
  const events = how.events && after.price !== before.price ? priceEvents(actor, name, before.price, after.price) : null;
  const [, , costWatched] = await pipelined(
    recordChange(sql, actor.workspaceId, name, before, after, how.at, how.source),
    events ? recordEvent(sql, events.updated) : Promise.resolve(0),
    events ? hasSubscriber(sql, actor.workspaceId, "formula.cost_changed") : Promise.resolve(false),
  );
  if (events && costWatched) {
    const formulas = await formulasMovedBy(sql, actor.workspaceId, name, before.price);
    if (formulas.length > 0) await recordEvent(sql, events.costChanged(formulas));
  }
}
