/** PostgreSQL's twins of ../events.ts: the outbox. */
import type { SQL } from "bun";
import type { NewEvent } from "../../domain/events.ts";
import { fanOut, subscribers } from "./deliveries.ts";
import { pipelined } from "./pipelined.ts";

/** The transaction lock of the outbox ("feedoutb" in ASCII); see {@link lockOutbox}. */
export const OUTBOX_LOCK = 0x66656564_6f757462n;

/**
 * Hold the outbox until the transaction ends. Event ids come from a sequence, so without it a later
 * id could commit before an earlier one and a reader of `GET /v1/events?after=` would step over the
 * earlier one for good; with it, events commit in id order as in SQLite, where one writer at a time
 * is the rule (docs/decisions.md#serving-from-postgresql). Taken again in the same transaction, it is a no-op.
 * @example await lockOutbox(tx)
 */
export async function lockOutbox(sql: SQL): Promise<void> {
  if (holding.has(sql)) return;
  await sql`SELECT pg_advisory_xact_lock(${OUTBOX_LOCK})`;
}

/** Transactions that hold the outbox lock to their end (./write-batch.ts's): their `lockOutbox` is free. */
const holding = new WeakSet<SQL>();

/**
 * Take the outbox lock for the rest of a transaction, outside any savepoint (one rolled back would give
 * back a lock taken inside it), so the statements of its writes need not take it again.
 * @example await holdOutbox(tx)
 */
export async function holdOutbox(tx: SQL): Promise<void> {
  await lockOutbox(tx);
  holding.add(tx);
}

/**
 * Append an event and make its deliveries, inside the change's transaction. The payload is serialized
 * once, here: these bytes are what every attempt sends and signs.
 * @example await recordEvent(tx, { workspaceId, type: "price.updated", ingredient: "Maize", payload, keyId, now })
 */
export async function recordEvent(sql: SQL, event: NewEvent): Promise<number> {
  await lockOutbox(sql);
  const [[row], webhooks] = await pipelined(
    sql`INSERT INTO events (workspace_id, type, ingredient, payload, key_id, created_at)
      VALUES (${event.workspaceId}, ${event.type}, ${event.ingredient}, ${JSON.stringify(event.payload)}, ${event.keyId}, ${event.now}) RETURNING id`.execute() as Promise<{ id: number }[]>,
    subscribers(sql, event.workspaceId, event.type),
  );
  await fanOut(sql, { id: row!.id, workspaceId: event.workspaceId, type: event.type, ingredient: event.ingredient, now: event.now }, webhooks);
  return row!.id;
}

/**
 * Several events in order, as {@link recordEvent} one after the other would record them; sent together
 * when no webhook takes any of them (an import's `ingredient.added` on a first load of many rows).
 * @example await recordEvents(tx, rows.map((row) => addedEvent(actor, row.input)))
 */
export async function recordEvents(sql: SQL, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await lockOutbox(sql);
  const types = [...new Set(events.map((event) => event.type))];
  const watched = await pipelined(...types.map((type) => subscribers(sql, events[0]!.workspaceId, type)));
  if (watched.some((webhooks) => webhooks.length > 0)) {
    for (const event of events) await recordEvent(sql, event);
    return;
  }
  await pipelined(
    ...events.map(
      (event) =>
        sql`INSERT INTO events (workspace_id, type, ingredient, payload, key_id, created_at)
          VALUES (${event.workspaceId}, ${event.type}, ${event.ingredient}, ${JSON.stringify(event.payload)}, ${event.keyId}, ${event.now})`.execute() as Promise<unknown>,
    ),
  );
}
