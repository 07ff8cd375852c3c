/**
 * What an admin does with deliveries (list them and their attempts, send them again) and what metrics
 * count, each written once over src/store/sqlite/delivery-admin.ts and src/store/pg/delivery-admin.ts.
 * The delivery loop's own work is in deliveries.ts.
 */
import { deliveryListing, noDelivery, type DeliveryAdminStatements, type DeliveryFilter, type RetryResult } from "./delivery-rows.ts";
import { operation, statements, tx } from "./op.ts";
import { pgDeliveryAdmin } from "./pg/delivery-admin.ts";
import { sqliteDeliveryAdmin } from "./sqlite/delivery-admin.ts";

const q = statements<DeliveryAdminStatements>(sqliteDeliveryAdmin, pgDeliveryAdmin);

/**
 * Deliveries, newest event first.
 * @example listDeliveries(db, { status: "failed", limit: 50 })
 */
export const listDeliveries = operation(function* (filter: DeliveryFilter) {
  const rows = yield* q.deliveries(filter.status ?? null, filter.webhookId ?? null, filter.workspaceId ?? null, filter.id ?? null, filter.limit);
  return rows.map(deliveryListing);
});

/**
 * Every attempt of a delivery, first first.
 * @example listAttempts(db, "dlv_0aQ7vM2xPp9kLr3B") // [{ number: 1, at, status: 500, error: "HTTP 500", ms: 12 }, …]
 */
export const listAttempts = operation(function* (deliveryId: string) {
  return yield* q.attempts(deliveryId);
});

/**
 * Send deliveries again, due at once. A failed or delivered one starts a fresh schedule; a pending
 * one waiting on its backoff keeps its attempt count and is made due now, together with the earlier
 * pending deliveries of its webhook and ingredient, which go first (the order per ingredient holds).
 * All or nothing: an unknown id (404) refuses the whole request (the caller's transaction rolls back).
 * @example retryDeliveries(db, ["dlv_0aQ7vM2xPp9kLr3B"], Date.now(), isoTime(Date.now())) // { requeued: 1, dueNow: 0 }
 */
export const retryDeliveries = operation(function* (ids: readonly string[], nowMs: number, now: string) {
  yield* tx.requireTransaction("retryDeliveries");
  const result: RetryResult = { requeued: 0, dueNow: 0 };
  for (const id of ids) {
    const row = yield* q.retryRow(id);
    if (!row) throw noDelivery(id);
    if (row.status !== "pending") {
      yield* q.requeue(id, nowMs, now);
      result.requeued++;
    } else result.dueNow += yield* q.dueNowUpTo(row, nowMs, now);
  }
  return result;
});

/**
 * Make every pending delivery (optionally of one webhook) that waits on its backoff due now, keeping
 * attempt counts and the order per ingredient; returns how many.
 * @example retryPending(db, Date.now(), isoTime(Date.now()), "wh_Zp8c1LmQ04sA") // 12
 */
export const retryPending = operation(function* (nowMs: number, now: string, webhookId?: string) {
  return yield* q.pendingDueNow(nowMs, now, webhookId ?? null);
});

/**
 * Put every failed delivery (optionally of one webhook) back on a fresh schedule; returns how many.
 * @example retryFailed(db, Date.now(), isoTime(Date.now())) // 3
 */
export const retryFailed = operation(function* (nowMs: number, now: string, webhookId?: string) {
  return yield* q.failedRequeued(nowMs, now, webhookId ?? null);
});

/**
 * Every webhook with its pending deliveries' count and the oldest one's creation time, for metrics.
 * @example pendingByWebhook(db) // [{ webhookId: "wh_x", pending: 3, oldest: "2026-11-23T10:00:00.000Z" }]
 */
export const pendingByWebhook = operation(function* () {
  return yield* q.pendingByWebhook();
});

/**
 * Delete delivered deliveries last touched before `before` (ISO); events are kept.
 * @example pruneDelivered(db, isoTime(Date.now() - 30 * 86_400_000)) // 118
 */
export const pruneDelivered = operation(function* (before: string) {
  return yield* q.deleteDelivered(before);
});
