import type { Database } from "bun:sqlite";
import { newDeliveryId } from "../domain/ids.ts";
import { recordAttempt } from "./attempts.ts";
import { OPT_IN_EVENTS, type EventType } from "../domain/events.ts";
import { requireTransaction } from "./transaction.ts";
import { deliveryListing, noDelivery, type DeliveryFilter, type DeliveryListing, type DeliveryListingRow, type DeliveryStatus, type RetryResult } from "./delivery-rows.ts";

export type { DeliveryFilter, DeliveryListing, DeliveryStatus, RetryResult } from "./delivery-rows.ts";

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

/**
 * Deliveries, newest event first.
 * @example listDeliveries(db, { status: "failed", limit: 50 })
 */
export function listDeliveries(db: Database, filter: DeliveryFilter): DeliveryListing[] {
  const rows = db
    .query(
      `SELECT d.id, d.webhook_id AS webhookId, e.type AS event, d.ingredient, d.status, d.attempts,
              d.last_status AS lastStatus, d.last_error AS lastError, d.next_attempt_at AS nextAttemptAt,
              d.created_at AS createdAt, d.updated_at AS updatedAt
       FROM deliveries d JOIN events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
       WHERE (?1 IS NULL OR d.status = ?1) AND (?2 IS NULL OR d.webhook_id = ?2) AND (?3 IS NULL OR w.workspace_id = ?3)
         AND (?5 IS NULL OR d.id = ?5)
       ORDER BY d.event_id DESC, d.webhook_id
       LIMIT ?4`,
    )
    .all(filter.status ?? null, filter.webhookId ?? null, filter.workspaceId ?? null, filter.limit, filter.id ?? null) as DeliveryListingRow[];
  return rows.map(deliveryListing);
}

const REQUEUE = `UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ?`;

/**
 * Send deliveries again, due at once. A failed or delivered one starts a fresh schedule; a pending
 * one waiting on its backoff keeps its attempt count and is made due now, together with the earlier
 * pending deliveries of its webhook and ingredient, which go first (the order per ingredient holds).
 * All or nothing: an unknown id (404) refuses the whole request (the caller's transaction rolls back).
 * @example retryDeliveries(db, ["dlv_0aQ7vM2xPp9kLr3B"], Date.now(), isoTime(Date.now())) // { requeued: 1, dueNow: 0 }
 */
export function retryDeliveries(db: Database, ids: readonly string[], nowMs: number, now: string): RetryResult {
  requireTransaction(db, "retryDeliveries");
  const result: RetryResult = { requeued: 0, dueNow: 0 };
  for (const id of ids) {
    const row = db.query("SELECT status, webhook_id AS webhookId, ingredient, event_id AS eventId FROM deliveries WHERE id = ?").get(id) as {
      status: DeliveryStatus;
      webhookId: string;
      ingredient: string;
      eventId: number;
    } | null;
    if (!row) throw noDelivery(id);
    if (row.status !== "pending") {
      db.query(REQUEUE).run(nowMs, now, id);
      result.requeued++;
      continue;
    }
    result.dueNow += db
      .query(
        `UPDATE deliveries SET next_attempt_at = ?1, updated_at = ?2
         WHERE webhook_id = ?3 AND ingredient = ?4 AND status = 'pending' AND event_id <= ?5 AND next_attempt_at > ?1`,
      )
      .run(nowMs, now, row.webhookId, row.ingredient, row.eventId).changes;
  }
  return result;
}

/**
 * Make every pending delivery (optionally of one webhook) that waits on its backoff due now, keeping
 * attempt counts and the order per ingredient; returns how many.
 * @example retryPending(db, Date.now(), isoTime(Date.now()), "wh_Zp8c1LmQ04sA") // 12
 */
export function retryPending(db: Database, nowMs: number, now: string, webhookId?: string): number {
  return db
    .query(
      `UPDATE deliveries SET next_attempt_at = ?1, updated_at = ?2
       WHERE status = 'pending' AND next_attempt_at > ?1 AND (?3 IS NULL OR webhook_id = ?3)`,
    )
    .run(nowMs, now, webhookId ?? null).changes;
}

/**
 * Put every failed delivery (optionally of one webhook) back on a fresh schedule; returns how many.
 * @example retryFailed(db, Date.now(), isoTime(Date.now())) // 3
 */
export function retryFailed(db: Database, nowMs: number, now: string, webhookId?: string): number {
  return db
    .query(
      `UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?1, updated_at = ?2
       WHERE status = 'failed' AND (?3 IS NULL OR webhook_id = ?3)`,
    )
    .run(nowMs, now, webhookId ?? null).changes;
}

/**
 * Delete delivered deliveries last touched before `before` (ISO); events are kept.
 * @example pruneDelivered(db, isoTime(Date.now() - 30 * 86_400_000)) // 118
 */
export function pruneDelivered(db: Database, before: string): number {
  return db.query("DELETE FROM deliveries WHERE status = 'delivered' AND updated_at < ?").run(before).changes;
}

export interface PendingByWebhook {
  webhookId: string;
  pending: number;
  /** `created_at` of the oldest pending delivery (ISO), or null when none waits. */
  oldest: string | null;
}

/**
 * Every webhook with its pending deliveries' count and the oldest one's creation time, for metrics.
 * @example pendingByWebhook(db) // [{ webhookId: "wh_x", pending: 3, oldest: "2026-11-23T10:00:00.000Z" }]
 */
export function pendingByWebhook(db: Database): PendingByWebhook[] {
  return db
    .query(
      `SELECT w.id AS webhookId, count(d.id) AS pending, min(d.created_at) AS oldest
       FROM webhooks w LEFT JOIN deliveries d ON d.webhook_id = w.id AND d.status = 'pending'
       GROUP BY w.id ORDER BY w.id`,
    )
    .all() as PendingByWebhook[];
}
