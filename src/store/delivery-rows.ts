/** What both backends' delivery stores share: the rows, a listing row mapped, the not-found error, the statements. */
import { NotFoundError } from "../domain/errors.ts";
import type { EventType } from "../domain/events.ts";

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** A delivery as `webhook deliveries` shows it. */
export interface DeliveryListing {
  id: string;
  webhookId: string;
  event: EventType;
  ingredient: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** For a pending delivery, when it is next tried (ISO); null otherwise. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryFilter {
  /** Only this delivery. */
  id?: string | undefined;
  status?: DeliveryStatus | undefined;
  webhookId?: string | undefined;
  workspaceId?: number | undefined;
  limit: number;
}

/** What {@link retryDeliveries} did. */
export interface RetryResult {
  /** Failed or delivered deliveries put back on a fresh schedule. */
  requeued: number;
  /** Pending deliveries made due now, the named ones and the earlier ones they wait behind. */
  dueNow: number;
}

export type DeliveryListingRow = Omit<DeliveryListing, "nextAttemptAt"> & { nextAttemptAt: number };

/** The next attempt's time (epoch ms) shown as ISO for a pending delivery, null otherwise. @example deliveryListing(row).nextAttemptAt // "2026-11-23T10:00:05.000Z" */
export const deliveryListing = (r: DeliveryListingRow): DeliveryListing => ({ ...r, nextAttemptAt: r.status === "pending" ? new Date(r.nextAttemptAt).toISOString() : null });

/** @example throw noDelivery("dlv_x") // NotFoundError: No delivery with id dlv_x (see feedbase webhook deliveries) */
export const noDelivery = (id: string): NotFoundError => new NotFoundError(`No delivery with id ${id} (see feedbase webhook deliveries)`);

/** One attempt to deliver, as `webhook deliveries show` lists it. */
export interface DeliveryAttempt {
  /** 1, 2, … over the delivery's whole life: an admin retry continues the count. */
  number: number;
  /** When the attempt started (ISO). */
  at: string;
  /** The receiver's status code, or null when no answer came (`error` says why). */
  status: number | null;
  error: string | null;
  ms: number;
}

export interface PendingByWebhook {
  webhookId: string;
  pending: number;
  /** `created_at` of the oldest pending delivery (ISO), or null when none waits. */
  oldest: string | null;
}

/** What `retryDeliveries` reads of one delivery. */
export interface RetryRow {
  status: DeliveryStatus;
  webhookId: string;
  ingredient: string;
  eventId: number;
}

/** The statements of src/store/delivery-admin.ts, each dialect's in src/store/sqlite/delivery-admin.ts and src/store/pg/delivery-admin.ts. */
export interface DeliveryAdminStatements {
  /** Newest event first, then webhook id; null filters match all. */
  deliveries(status: string | null, webhookId: string | null, workspaceId: number | null, id: string | null, limit: number): DeliveryListingRow[];
  attempts(deliveryId: string): DeliveryAttempt[];
  retryRow(id: string): RetryRow | null;
  /** A fresh schedule (attempts 0), due at once; any lease released. */
  requeue(id: string, nowMs: number, now: string): void;
  /** Make the pending deliveries of a webhook and ingredient up to an event due now; how many moved. */
  dueNowUpTo(row: RetryRow, nowMs: number, now: string): number;
  /** Every pending delivery waiting on its backoff (of one webhook, or null: all) due now; how many. */
  pendingDueNow(nowMs: number, now: string, webhookId: string | null): number;
  /** Every failed delivery (of one webhook, or null: all) on a fresh schedule; how many. */
  failedRequeued(nowMs: number, now: string, webhookId: string | null): number;
  pendingByWebhook(): PendingByWebhook[];
  /** Delete delivered deliveries last touched before `before` (ISO); how many. */
  deleteDelivered(before: string): number;
}

/** The statements of src/store/attempts.ts, each dialect's in src/store/sqlite/attempts.ts and src/store/pg/attempts.ts. */
export interface AttemptStatements {
  /** Numbered 1, 2, … per delivery by the insert itself. */
  insertAttempt(deliveryId: string, attempt: Omit<DeliveryAttempt, "number">): void;
}

/** Everything one attempt needs, read just before it is made (so the secret is the current one). */
export interface DueDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  event: EventType;
  /** The event's id as clients see it (its number in the workspace), the cursor of GET /v1/events. */
  eventId: number;
  /** The stored body: the exact bytes of every attempt. */
  payload: string;
  /** Attempts made so far. */
  attempts: number;
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

/** The statements of src/store/deliveries.ts, each dialect's in src/store/sqlite/deliveries.ts and src/store/pg/deliveries.ts. */
export interface DeliveryStatements {
  /** Whether an enabled webhook of the workspace names the type in its list. */
  hasSubscriber(workspaceId: number, type: EventType): boolean;
  /** Enabled webhooks with a pending delivery due at `nowMs` (on PostgreSQL, one no live instance holds). */
  webhooksWithDue(nowMs: number): string[];
  /** The earliest `next_attempt_at` after `nowMs` of a pending delivery, or null. */
  nextDueAfter(nowMs: number): number | null;
  /** Write an outcome if the delivery is pending with `attemptsBefore` attempts (any claim released); how many changed (0 or 1). */
  finishDelivery(o: AttemptOutcome): number;
}
