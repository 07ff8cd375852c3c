/**
 * What an ingredient change records beside itself, built the same way whichever database stores it:
 * the price after a PUT, whether a history entry is due, and the events' rows (payload field order
 * included: these are the bytes every webhook attempt signs).
 */
import type { CreateIngredient } from "../schemas/ingredients.ts";
import type { FormulaCostChangedPayload, NewEvent } from "./events.ts";

/** Who changes data, in which workspace, at which instant (ISO). */
export interface Actor {
  workspaceId: number;
  keyId: string | null;
  now: string;
}

export interface PricePoint {
  price: number;
  inStock: boolean;
}

/** A PUT's change: PUT /v1/prices/:name never carries `co2e`; PUT /v1/ingredients/:name may (null clears it). */
export interface PriceChange {
  price: number;
  inStock?: boolean | undefined;
  co2e?: number | null | undefined;
}

/**
 * The footprint after a change: an absent `co2e` keeps the stored one (footprints have no history).
 * @example co2eAfter({ co2e: 0.4 }, { price: 219 }) // 0.4
 */
export const co2eAfter = (before: { co2e: number | null }, change: PriceChange): number | null => (change.co2e === undefined ? before.co2e : change.co2e);

/**
 * A price and stock flag after a change that may leave the flag out.
 * @example priceAfter({ price: 215, inStock: true }, { price: 219 }) // { price: 219, inStock: true }
 */
export const priceAfter = (before: PricePoint, change: { price: number; inStock?: boolean | undefined }): PricePoint => ({
  price: change.price,
  inStock: change.inStock ?? before.inStock,
});

/**
 * Whether a change repeats both price and stock, so no history entry is written.
 * @example repeatsPoint({ price: 1, inStock: true }, { price: 1, inStock: true }) // true
 */
export const repeatsPoint = (before: PricePoint, after: PricePoint): boolean => before.price === after.price && before.inStock === after.inStock;

/** @example addedEvent(actor, input).type // "ingredient.added" */
export function addedEvent(actor: Actor, input: CreateIngredient): NewEvent {
  return {
    workspaceId: actor.workspaceId,
    type: "ingredient.added",
    ingredient: input.name,
    payload: { ingredient: input.name, category: input.category, price: input.price, timestamp: actor.now },
    keyId: actor.keyId,
    now: actor.now,
  };
}

/**
 * `price.updated` for a price change, and the `formula.cost_changed` that goes with it once the moved
 * formulas are known (the same ingredient, so one order per webhook covers both).
 * @example const events = priceEvents(actor, "Maize", 215, 219); recordEvent(db, events.updated)
 */
export function priceEvents(actor: Actor, name: string, oldPrice: number, newPrice: number): { updated: NewEvent; costChanged(formulas: FormulaCostChangedPayload["formulas"]): NewEvent } {
  const event = { workspaceId: actor.workspaceId, ingredient: name, keyId: actor.keyId, now: actor.now };
  const prices = { ingredient: name, old_price: oldPrice, new_price: newPrice };
  return {
    updated: { ...event, type: "price.updated", payload: { ...prices, timestamp: actor.now } },
    costChanged: (formulas) => ({ ...event, type: "formula.cost_changed", payload: { ...prices, formulas, timestamp: actor.now } }),
  };
}
