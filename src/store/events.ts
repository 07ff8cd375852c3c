import type { Database } from "bun:sqlite";
import type { EventType, NewEvent } from "../domain/events.ts";
import { fanOut } from "./deliveries.ts";

export type { EventRow } from "./event-rows.ts";

/**
 * Append an event to the outbox and make its deliveries (one per enabled, subscribed webhook). Call it
 * inside the transaction that makes the change, so the change, its event and its deliveries commit
 * together or not at all. The payload is serialized here, once: these bytes are what every delivery
 * attempt sends and signs.
 * @example recordEvent(db, { workspaceId, type: "price.updated", ingredient: "Maize", payload, keyId, now })
 */
export function recordEvent(db: Database, event: NewEvent): number {
  const result = db
    .query("INSERT INTO events (workspace_id, type, ingredient, payload, key_id, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(event.workspaceId, event.type, event.ingredient, JSON.stringify(event.payload), event.keyId, event.now);
  const id = Number(result.lastInsertRowid);
  fanOut(db, { id, workspaceId: event.workspaceId, type: event.type, ingredient: event.ingredient, now: event.now });
  return id;
}

export interface StoredEvent {
  id: number;
  type: EventType;
  ingredient: string;
  payload: string;
  keyId: string | null;
  createdAt: string;
}

/** The events of a workspace, oldest first: the price history. @example listEvents(db, 1) */
export function listEvents(db: Database, workspaceId: number): StoredEvent[] {
  return db
    .query(
      `SELECT id, type, ingredient, payload, key_id AS keyId, created_at AS createdAt
       FROM events WHERE workspace_id = ? ORDER BY id`,
    )
    .all(workspaceId) as StoredEvent[];
}
