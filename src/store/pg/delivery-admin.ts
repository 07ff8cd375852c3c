/**
 * What an admin does with deliveries on PostgreSQL: list them and their attempts, send them again,
 * count what waits (PostgreSQL's twins of the admin half of ../deliveries.ts and ../attempts.ts; the
 * delivery loop's own claim and finish are in deliveries.ts here). Epoch-ms columns are BIGINT: read
 * as `::float8`, since Bun.sql reads int8 as text.
 */
import type { SQL } from "bun";
import type { DeliveryAttempt } from "../attempts.ts";
import type { PendingByWebhook } from "../deliveries.ts";
import { deliveryListing, noDelivery, type DeliveryFilter, type DeliveryListing, type DeliveryListingRow, type DeliveryStatus, type RetryResult } from "../delivery-rows.ts";

/** @example await listDeliveries(sql, { status: "failed", limit: 50 }) // newest event first */
export async function listDeliveries(sql: SQL, filter: DeliveryFilter): Promise<DeliveryListing[]> {
  const status = filter.status ?? null;
  const webhook = filter.webhookId ?? null;
  const workspace = filter.workspaceId ?? null;
  const id = filter.id ?? null;
  const rows = (await sql`SELECT d.id, d.webhook_id AS "webhookId", e.type AS event, d.ingredient, d.status, d.attempts,
      d.last_status AS "lastStatus", d.last_error AS "lastError", d.next_attempt_at::float8 AS "nextAttemptAt",
      d.created_at AS "createdAt", d.updated_at AS "updatedAt"
    FROM deliveries d JOIN events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
    WHERE (${status}::text IS NULL OR d.status = ${status}::text) AND (${webhook}::text IS NULL OR d.webhook_id = ${webhook}::text)
      AND (${workspace}::int IS NULL OR w.workspace_id = ${workspace}::int) AND (${id}::text IS NULL OR d.id = ${id}::text)
    ORDER BY d.event_id DESC, d.webhook_id COLLATE "C"
    LIMIT ${filter.limit}`) as DeliveryListingRow[];
  return rows.map(deliveryListing);
}

/** @example await listAttempts(sql, "dlv_0aQ7vM2xPp9kLr3B") // [{ number: 1, at, status: 500, error: "HTTP 500", ms: 12 }, …] */
export async function listAttempts(sql: SQL, deliveryId: string): Promise<DeliveryAttempt[]> {
  return (await sql`SELECT number, at, status, error, ms FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY number`) as DeliveryAttempt[];
}

/**
 * Send deliveries again, as ../deliveries.ts `retryDeliveries` does (a failed or delivered one on a
 * fresh schedule; a pending one due now with the earlier pending ones of its webhook and ingredient).
 * An unknown id refuses the whole request: call inside the caller's transaction.
 * @example await retryDeliveries(tx, ["dlv_0aQ7vM2xPp9kLr3B"], Date.now(), isoTime(Date.now())) // { requeued: 1, dueNow: 0 }
 */
export async function retryDeliveries(sql: SQL, ids: readonly string[], nowMs: number, now: string): Promise<RetryResult> {
  const result: RetryResult = { requeued: 0, dueNow: 0 };
  for (const id of ids) {
    const [row] = (await sql`SELECT status, webhook_id AS "webhookId", ingredient, event_id AS "eventId" FROM deliveries WHERE id = ${id}`) as {
      status: DeliveryStatus;
      webhookId: string;
      ingredient: string;
      eventId: number;
    }[];
    if (!row) throw noDelivery(id);
    if (row.status !== "pending") {
      await sql`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${nowMs}, updated_at = ${now}, claimed_by = NULL, claimed_until = NULL WHERE id = ${id}`;
      result.requeued++;
      continue;
    }
    const moved = await sql`UPDATE deliveries SET next_attempt_at = ${nowMs}, updated_at = ${now}
      WHERE webhook_id = ${row.webhookId} AND ingredient = ${row.ingredient} AND status = 'pending' AND event_id <= ${row.eventId} AND next_attempt_at > ${nowMs}`;
    result.dueNow += moved.count;
  }
  return result;
}

/** @example await retryPending(tx, Date.now(), isoTime(Date.now()), "wh_Zp8c1LmQ04sA") // 12 */
export async function retryPending(sql: SQL, nowMs: number, now: string, webhookId?: string): Promise<number> {
  const webhook = webhookId ?? null;
  const moved = await sql`UPDATE deliveries SET next_attempt_at = ${nowMs}, updated_at = ${now}
    WHERE status = 'pending' AND next_attempt_at > ${nowMs} AND (${webhook}::text IS NULL OR webhook_id = ${webhook}::text)`;
  return moved.count;
}

/** @example await retryFailed(tx, Date.now(), isoTime(Date.now())) // 3 */
export async function retryFailed(sql: SQL, nowMs: number, now: string, webhookId?: string): Promise<number> {
  const webhook = webhookId ?? null;
  const moved = await sql`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${nowMs}, updated_at = ${now}, claimed_by = NULL, claimed_until = NULL
    WHERE status = 'failed' AND (${webhook}::text IS NULL OR webhook_id = ${webhook}::text)`;
  return moved.count;
}

/** Every webhook with its pending count and oldest pending creation time, for metrics. @example await pendingByWebhook(sql) */
export async function pendingByWebhook(sql: SQL): Promise<PendingByWebhook[]> {
  return (await sql`SELECT w.id AS "webhookId", count(d.id)::int AS pending, min(d.created_at) AS oldest
    FROM webhooks w LEFT JOIN deliveries d ON d.webhook_id = w.id AND d.status = 'pending'
    GROUP BY w.id ORDER BY w.id COLLATE "C"`) as PendingByWebhook[];
}
