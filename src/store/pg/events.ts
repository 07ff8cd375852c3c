/** PostgreSQL's statements for ../events.ts (the outbox), and the outbox lock a write batch holds. */
import type { SQL } from "bun";
import { OPT_IN_EVENTS } from "../../domain/events.ts";
import { newDeliveryId } from "../../domain/ids.ts";
import type { EventStatements, StoredEvent } from "../event-rows.ts";
import type { PgStatements } from "../op.ts";
import { pipelined } from "./pipelined.ts";

/** The transaction lock of the outbox ("feedoutb" in ASCII); see {@link lockOutbox}. */
export const OUTBOX_LOCK = 0x66656564_6f757462n;

/**
 * Hold the outbox until the transaction ends. Without it a later event could commit before an earlier
 * one and a reader of `GET /v1/events?after=` would step over the earlier one for good, and two
 * transactions could give the same number in a workspace (the next is the highest plus one); with it,
 * events are numbered and commit in order as in SQLite, where one writer at a time is the rule
 * (docs/decisions.md#serving-from-postgresql). Taken again in the same transaction, it is a no-op.
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

export const pgEvents: PgStatements<EventStatements> = {
  lockOutbox,
  insertEvent: async (sql, event) => {
    const [row] = (await sql`INSERT INTO events (workspace_id, number, type, ingredient, payload, key_id, created_at)
      VALUES (${event.workspaceId}, (SELECT coalesce(max(number), 0) + 1 FROM events WHERE workspace_id = ${event.workspaceId}),
        ${event.type}, ${event.ingredient}, ${JSON.stringify(event.payload)}, ${event.keyId}, ${event.now}) RETURNING id`) as { id: number }[];
    return row!.id;
  },
  subscribers: async (sql, workspaceId, type) => {
    const optIn = OPT_IN_EVENTS.includes(type) ? 1 : 0;
    const rows = (await sql`SELECT id FROM webhooks WHERE workspace_id = ${workspaceId} AND enabled = 1
      AND ((events IS NULL AND ${optIn}::int = 0) OR strpos(',' || events || ',', ',' || ${type}::text || ',') > 0) ORDER BY id`) as { id: string }[];
    return rows.map((row) => row.id);
  },
  // The inserts are sent together.
  insertDeliveries: async (sql, event, webhooks) => {
    const dueAt = Date.parse(event.now);
    await pipelined(
      ...webhooks.map(
        (id) => sql`INSERT INTO deliveries (id, webhook_id, event_id, ingredient, status, attempts, next_attempt_at, created_at, updated_at)
          VALUES (${newDeliveryId()}, ${id}, ${event.id}, ${event.ingredient}, 'pending', 0, ${dueAt}::bigint, ${event.now}, ${event.now})`.execute() as Promise<unknown>,
      ),
    );
  },
  storedEvents: async (sql, workspaceId) =>
    (await sql`SELECT number AS id, type, ingredient, payload, key_id AS "keyId", created_at AS "createdAt"
      FROM events WHERE workspace_id = ${workspaceId} ORDER BY number`) as StoredEvent[],
};
