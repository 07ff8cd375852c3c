/** What both backends' events share: the rows read back, and the statements of the outbox and of a page. */
import type { EventType, NewEvent } from "../domain/events.ts";

/** One event as GET /v1/events lists it: the stored payload text, not parsed. */
export interface EventRow {
  /** Its number in the workspace (1, 2, 3…), not the global key deliveries reference. */
  id: number;
  type: EventType;
  createdAt: string;
  payload: string;
}

/** The statements of src/store/event-pages.ts, each dialect's in src/store/sqlite/event-pages.ts and src/store/pg/event-pages.ts. */
export interface EventPageStatements {
  /** Up to `count` events of the workspace after the cursor, oldest first. */
  eventsAfter(workspaceId: number, after: number, count: number): EventRow[];
}

/** An event as stored, with what no route shows (the key that made it). */
export interface StoredEvent {
  /** Its number in the workspace, as GET /v1/events shows it. */
  id: number;
  type: EventType;
  ingredient: string;
  payload: string;
  keyId: string | null;
  createdAt: string;
}

/** The event a delivery is made for, as `recordEvent` has just stored it. */
export interface CommittedEvent {
  /** Its global key (`events.id`), which deliveries reference. */
  id: number;
  workspaceId: number;
  type: EventType;
  ingredient: string;
  /** ISO time of the change: the deliveries' creation time and first due time. */
  now: string;
}

/** The statements of src/store/events.ts (the outbox), each dialect's in src/store/sqlite/events.ts and src/store/pg/events.ts. */
export interface EventStatements {
  /** Events commit in id order: PostgreSQL takes the outbox lock, SQLite has one writer at a time already. */
  lockOutbox(): void;
  /** The event row, numbered next in its workspace, its payload serialized here; its global key (deliveries reference it). */
  insertEvent(event: NewEvent): number;
  /** The enabled webhooks of the workspace an event of `type` goes to (one without a list takes all but the opt-in types). */
  subscribers(workspaceId: number, type: EventType): string[];
  /** One pending delivery per webhook, due at the event's time. */
  insertDeliveries(event: CommittedEvent, webhooks: readonly string[]): void;
  /** A workspace's events, oldest first. */
  storedEvents(workspaceId: number): StoredEvent[];
}
