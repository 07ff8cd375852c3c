/**
 * Changes to ingredients, each inside its owner's transaction with what it causes (price history,
 * events); the reads are in ingredients.ts. Written once over src/store/sqlite/ingredient-changes.ts and
 * src/store/pg/ingredient-changes.ts.
 */
import { ConflictError } from "../domain/errors.ts";
import { addedEvent, co2eAfter, priceAfter, priceEvents, repeatsPoint, type Actor, type PriceChange, type PricePoint } from "../domain/ingredient-events.ts";
import type { CreateIngredient } from "../schemas/ingredients.ts";
import { formulasMovedBy } from "./costs.ts";
import { hasSubscriber } from "./deliveries.ts";
import { recordEvent } from "./events.ts";
import { isUniqueViolation, type IngredientChangeStatements, type IngredientDetail } from "./ingredient-rows.ts";
import { findIngredient, requireIngredient } from "./ingredients.ts";
import { all, operation, statements, tx, type Step } from "./op.ts";
import { pgIngredientChanges } from "./pg/ingredient-changes.ts";
import { history, type PriceSource } from "./price-history.ts";
import { sqliteIngredientChanges } from "./sqlite/ingredient-changes.ts";

export type { Actor } from "../domain/ingredient-events.ts";

const q = statements<IngredientChangeStatements>(sqliteIngredientChanges, pgIngredientChanges);

/** How a change of price or stock is recorded: the entry's instant and source, and whether it fires events. */
export interface PriceChangeHow {
  at: string;
  source: PriceSource;
  events: boolean;
}

function* insert(workspaceId: number, input: CreateIngredient, source: PriceSource, now: string, createdAt = now) {
  yield* q.insertIngredient(workspaceId, input, createdAt, now);
  yield* history.appendEntry(workspaceId, input.name, { price: input.price, inStock: input.inStock, at: now, source });
}

/**
 * Insert with its first price-history entry (at `now`, its updatedAt) and no event (an import records
 * its `ingredient.added` itself, unless told to fire none). Call inside a transaction.
 * @example insertIngredient(db, 1, input, "import", now)
 */
export const insertIngredient = operation(insert);

/**
 * Create an ingredient, its first price-history entry and its `ingredient.added` event, inside the
 * caller's transaction.
 * @example createIngredient(db, { workspaceId: 1, keyId, now }, { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: {} })
 */
export const createIngredient = operation(function* (actor: Actor, input: CreateIngredient) {
  yield* tx.requireTransaction("createIngredient");
  yield* q.lockOutbox();
  const taken = () => new ConflictError(`Ingredient already exists: ${input.name}`);
  if (yield* findIngredient.steps(actor.workspaceId, input.name)) throw taken();
  try {
    yield* insert(actor.workspaceId, input, "api", actor.now);
  } catch (error) {
    // On PostgreSQL an import in another process, which takes no outbox lock, got there between the check and the insert.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  yield* recordEvent.steps(addedEvent(actor, input));
  return yield* requireIngredient.steps(actor.workspaceId, input.name);
});

/**
 * What a change of price or stock causes, sent together with `write` (the change itself, when the
 * caller has not made it yet): a history entry at `at` unless price and stock both repeat; when the
 * price moved and `events`, `price.updated` and, if the current cost of a saved formula moves and a
 * webhook asked for it, `formula.cost_changed` (the same ingredient, so one order per webhook covers
 * both). The API's PUT and the imports share it, so they fire the same.
 */
function* priceChange(write: Step<void>[], actor: Actor, name: string, before: PricePoint, after: PricePoint, how: PriceChangeHow) {
  const changes = repeatsPoint(before, after) ? write : [...write, history.appendEntry(actor.workspaceId, name, { ...after, at: how.at, source: how.source })];
  if (!how.events || after.price === before.price) {
    if (changes.length > 0) yield* all(...changes);
    return;
  }
  const events = priceEvents(actor, name, before.price, after.price);
  // Opt-in and costly (a third of a PUT): recorded only when a webhook can receive it (docs/decisions.md#price-history-and-formula-costs).
  const [costWatched] = yield* all(hasSubscriber.steps(actor.workspaceId, "formula.cost_changed"), ...changes, recordEvent.steps(events.updated));
  if (!costWatched) return;
  const formulas = yield* formulasMovedBy.steps(actor.workspaceId, name, before.price);
  if (formulas.length > 0) yield* recordEvent.steps(events.costChanged(formulas));
}

/**
 * What a change of price or stock already written causes, inside its transaction (see `priceChange`).
 * @example recordPriceChange(db, actor, "Maize", before, after, { at: actor.now, source: "import", events: true })
 */
export const recordPriceChange = operation(function* (actor: Actor, name: string, before: PricePoint, after: PricePoint, how: PriceChangeHow) {
  yield* priceChange([], actor, name, before, after, how);
});

/**
 * Set a price (and optionally the stock flag and, from PUT /v1/ingredients/:name, the footprint: absent
 * keeps it), inside the caller's transaction with what it causes (see `priceChange`). The outbox lock
 * is taken first, so on PostgreSQL the price read as "before" cannot change until this commits.
 * @example updatePrice(db, actor, "Maize", { price: 219, inStock: true })
 */
export const updatePrice = operation(function* (actor: Actor, name: string, change: PriceChange) {
  yield* tx.requireTransaction("updatePrice");
  yield* q.lockOutbox();
  const before = yield* q.lockedIngredient(actor.workspaceId, name);
  const after = priceAfter(before, change);
  const co2e = co2eAfter(before, change);
  yield* priceChange([q.setPrice(actor.workspaceId, name, after, co2e, actor.now)], actor, name, before, after, { at: actor.now, source: "api", events: true });
  // What a re-read would return, without reading the nutrients again.
  const updated: IngredientDetail = { ...before, ...after, co2e, updatedAt: actor.now };
  return updated;
});
