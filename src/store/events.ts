/** The outbox (events and their deliveries), each operation written once over src/store/sqlite/events.ts and src/store/pg/events.ts. */
import type { NewEvent } from "../domain/events.ts";
import type { EventStatements } from "./event-rows.ts";
import { all, operation, statements } from "./op.ts";
import { pgEvents } from "./pg/events.ts";
import { sqliteEvents } from "./sqlite/events.ts";

export type { EventRow, StoredEvent } from "./event-rows.ts";

const q = statements<EventStatements>(sqliteEvents, pgEvents);

/**
 * Append an event to the outbox and make its deliveries (one per enabled, subscribed webhook, as they
 * are in this transaction). Call it inside the transaction that makes the change, so the change, its
 * event and its deliveries commit together or not at all, and a webhook added, disabled or removed
 * concurrently is wholly before or after it. The payload is serialized once, on insert: these bytes
 * are what every delivery attempt sends and signs.
 * @example recordEvent(db, { workspaceId, type: "price.updated", ingredient: "Maize", payload, keyId, now }) // yield* recordEvent.steps(event) inside an operation
 */
export const recordEvent = operation(function* (event: NewEvent) {
  yield* q.lockOutbox();
  const [id, webhooks] = yield* all(q.insertEvent(event), q.subscribers(event.workspaceId, event.type));
  yield* q.insertDeliveries({ id, workspaceId: event.workspaceId, type: event.type, ingredient: event.ingredient, now: event.now }, webhooks);
  return id;
});

/**
 * Several events of one workspace in order, as {@link recordEvent} one after the other would record
 * them; the inserts go together when no webhook takes any of them (an import's `ingredient.added` on
 * a first load of many rows).
 * @example await recordEvents(tx, rows.map((row) => addedEvent(actor, row.input)))
 */
export const recordEvents = operation(function* (events: readonly NewEvent[]) {
  if (events.length === 0) return;
  yield* q.lockOutbox();
  const types = [...new Set(events.map((event) => event.type))];
  const watched = yield* all(...types.map((type) => q.subscribers(events[0]!.workspaceId, type)));
  if (watched.some((webhooks) => webhooks.length > 0)) {
    for (const event of events) yield* recordEvent.steps(event);
    return;
  }
  yield* all(...events.map((event) => q.insertEvent(event)));
});

/** The events of a workspace, oldest first: the price history. @example listEvents(db, 1) */
export const listEvents = operation(function* (workspaceId: number) {
  return yield* q.storedEvents(workspaceId);
});
