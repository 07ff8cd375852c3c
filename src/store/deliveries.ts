import type { Database } from "bun:sqlite";
import { newDeliveryId } from "../domain/ids.ts";
import { recordAttempt } from "./attempts.ts";
import { OPT_IN_EVENTS, type EventType } from "../domain/events.ts";
import type { DeliveryStatus } from "./delivery-rows.ts";

export type { DeliveryFilter, DeliveryListing, DeliveryStatus, PendingByWebhook, RetryResult } from "./delivery-rows.ts";

/** The event a delivery is made for, as `recordEvent` has just stored it. */
export interface CommittedEvent {
  id: number;
  workspaceId: number;
  type: EventType;
  ingredient: string;
  /** ISO time of the change: the deliveries' creation time and first due time. */
  now: string;
}

/**
 * One pending delivery per webhook of the event's workspace that is enabled and subscribed to its
 * type, at this moment (a webhook without an event list takes every type but the opt-in ones). Call inside the transaction that records the event, so a webhook added,
 * disabled or removed concurrently is either wholly before or wholly after it.
 * @example fanOut(db, { id: 42, workspaceId: 1, type: "price.updated", ingredient: "Maize", now }) // 2
 */
export function fanOut(db: Database, event: CommittedEvent): number {
  const webhooks = db
    .query(
      `SELECT id FROM webhooks
       WHERE workspace_id = ?1 AND enabled = 1 AND ((events IS NULL AND ?3 = 0) OR instr(',' || events || ',', ',' || ?2 || ',') > 0)`,
    )
    .all(event.workspaceId, event.type, OPT_IN_EVENTS.includes(event.type) ? 1 : 0) as { id: string }[];
  const insert = db.query(
    `INSERT INTO deliveries (id, webhook_id, event_id, ingredient, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
  );
  const dueAt = Date.parse(event.now);
  for (const { id } of webhooks) insert.run(newDeliveryId(), id, event.id, event.ingredient, dueAt, event.now, event.now);
  return webhooks.length;
}

/**
 * Whether an enabled webhook of the workspace names this event type in its list: for opt-in events,
 * which are worth computing only when someone will receive them.
 * @example hasSubscriber(db, 1, "formula.cost_changed") // false
 */
export function hasSubscriber(db: Database, workspaceId: number, type: EventType): boolean {
  return (
    db.query("SELECT 1 FROM webhooks WHERE workspace_id = ?1 AND enabled = 1 AND instr(',' || events || ',', ',' || ?2 || ',') > 0 LIMIT 1").get(workspaceId, type) !== null
  );
}

/**
 * Enabled webhooks that have at least one pending delivery due at `nowMs`: one index probe per
 * webhook, whatever the backlog.
 * @example webhooksWithDueDeliveries(db, Date.now()) // ["wh_Zp8c1LmQ04sA"]
 */
export function webhooksWithDueDeliveries(db: Database, nowMs: number): string[] {
  return (
    db
      .query(
        `SELECT w.id FROM webhooks w
         WHERE w.enabled = 1
           AND EXISTS (SELECT 1 FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ?)`,
      )
      .all(nowMs) as { id: string }[]
  ).map((r) => r.id);
}

/** Everything one attempt needs, read just before it is made (so the secret is the current one). */
export interface DueDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  event: EventType;
  /** The event's id, the cursor of GET /v1/events. */
  eventId: number;
  /** The stored body: the exact bytes of every attempt. */
  payload: string;
  /** Attempts made so far. */
  attempts: number;
}

/**
 * A webhook's due deliveries, longest due first, leaving out any that waits behind an earlier
 * pending event for the same ingredient (docs/decisions.md#webhooks: per webhook and ingredient, in order). Walks the
 * due index in order and stops at `limit`, so a backlog does not make each look slower.
 * @example dueDeliveries(db, "wh_Zp8c1LmQ04sA", Date.now(), 8)
 */
export function dueDeliveries(db: Database, webhookId: string, nowMs: number, limit: number): DueDelivery[] {
  return db
    .query(
      `SELECT d.id, d.webhook_id AS webhookId, w.url, w.secret, e.type AS event, d.event_id AS eventId, e.payload, d.attempts
       FROM deliveries d INDEXED BY deliveries_due
         JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
       WHERE d.webhook_id = ?1 AND d.status = 'pending' AND d.next_attempt_at <= ?2 AND w.enabled = 1
         AND d.event_id = (SELECT min(p.event_id) FROM deliveries p
                           WHERE p.webhook_id = d.webhook_id AND p.ingredient = d.ingredient AND p.status = 'pending')
       ORDER BY d.next_attempt_at
       LIMIT ?3`,
    )
    .all(webhookId, nowMs, limit) as DueDelivery[];
}

/**
 * The earliest time after `nowMs` at which a pending delivery falls due, or null: when to look again.
 * @example nextDueAfter(db, Date.now()) // 1795269792000
 */
export function nextDueAfter(db: Database, nowMs: number): number | null {
  return (db.query("SELECT min(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_next WHERE status = 'pending' AND next_attempt_at > ?").get(nowMs) as { at: number | null }).at;
}

/** The outcome of one attempt, as the loop writes it. */
export interface AttemptOutcome {
  id: string;
  /** The attempt count the attempt was made with: the update applies only if nobody changed the delivery meanwhile. */
  attemptsBefore: number;
  status: DeliveryStatus;
  /** When pending: the next attempt's time (epoch ms). */
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  now: string;
  /** When the attempt started (ISO) and how long it took: kept in the delivery's attempt history. */
  startedAt: string;
  ms: number;
}

/** A webhook to disable with an outcome (its receiver answered 410 Gone), and why. */
export interface WebhookDisable {
  webhookId: string;
  reason: string;
}

/**
 * Record a finished attempt, and keep it in the delivery's history. Returns false when the delivery
 * changed meanwhile (its webhook was removed, say), in which case nothing is written.
 * @example finishAttempt(db, { id, attemptsBefore: 0, status: "delivered", nextAttemptAt: 0, lastStatus: 204, lastError: null, now, startedAt, ms: 12 })
 */
export function finishAttempt(db: Database, o: AttemptOutcome): boolean {
  const result = db
    .query(
      `UPDATE deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND status = 'pending' AND attempts = ?`,
    )
    .run(o.status, o.nextAttemptAt, o.lastStatus, o.lastError, o.now, o.id, o.attemptsBefore);
  if (result.changes !== 1) return false;
  recordAttempt(db, o.id, { at: o.startedAt, status: o.lastStatus, error: o.lastError, ms: o.ms });
  return true;
}
