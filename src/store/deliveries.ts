/**
 * The delivery loop's reads and writes, each written once over src/store/sqlite/deliveries.ts and
 * src/store/pg/deliveries.ts. Taking due deliveries differs by design: SQLite's one process reads them
 * (sqlite/deliveries.ts `dueDeliveries`), PostgreSQL's instances claim them (pg/deliveries.ts `claimDue`).
 */
import type { EventType } from "../domain/events.ts";
import { recordAttempt } from "./attempts.ts";
import type { AttemptOutcome, DeliveryStatements, WebhookDisable } from "./delivery-rows.ts";
import { operation, statements, tx } from "./op.ts";
import { pgDeliveries } from "./pg/deliveries.ts";
import { sqliteDeliveries } from "./sqlite/deliveries.ts";
import { setWebhookEnabled } from "./webhooks.ts";

export type { AttemptOutcome, DeliveryFilter, DeliveryListing, DeliveryStatus, DueDelivery, PendingByWebhook, RetryResult, WebhookDisable } from "./delivery-rows.ts";

const q = statements<DeliveryStatements>(sqliteDeliveries, pgDeliveries);

/**
 * Whether an enabled webhook of the workspace names this event type in its list: for opt-in events,
 * which are worth computing only when someone will receive them.
 * @example hasSubscriber(db, 1, "formula.cost_changed") // false
 */
export const hasSubscriber = operation(function* (workspaceId: number, type: EventType) {
  return yield* q.hasSubscriber(workspaceId, type);
});

/**
 * Enabled webhooks that have at least one pending delivery due at `nowMs` (on PostgreSQL, one no live
 * instance holds: ./pg/live-claims.ts).
 * @example webhooksWithDueDeliveries(db, Date.now()) // ["wh_Zp8c1LmQ04sA"]
 */
export const webhooksWithDueDeliveries = operation(function* (nowMs: number) {
  return yield* q.webhooksWithDue(nowMs);
});

/**
 * The earliest time after `nowMs` at which a pending delivery falls due, or null: when to look again.
 * @example nextDueAfter(db, Date.now()) // 1795269792000
 */
export const nextDueAfter = operation(function* (nowMs: number) {
  return yield* q.nextDueAfter(nowMs);
});

/**
 * Record a finished attempt, keep it in the delivery's history, and disable the webhook when it
 * answered 410, in the caller's transaction. Returns false when the delivery changed meanwhile (its
 * webhook was removed, say), in which case nothing is written.
 * @example finishAttempt(db, { id, attemptsBefore: 0, status: "delivered", nextAttemptAt: 0, lastStatus: 204, lastError: null, now, startedAt, ms: 12 }, null)
 */
export const finishAttempt = operation(function* (o: AttemptOutcome, disable: WebhookDisable | null) {
  yield* tx.requireTransaction("finishAttempt");
  if ((yield* q.finishDelivery(o)) !== 1) return false;
  yield* recordAttempt.steps(o.id, { at: o.startedAt, status: o.lastStatus, error: o.lastError, ms: o.ms });
  if (disable !== null) yield* setWebhookEnabled.steps(disable.webhookId, false, disable.reason);
  return true;
});
