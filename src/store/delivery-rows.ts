/** What both backends' delivery stores share: a listing row mapped, the not-found error. */
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
