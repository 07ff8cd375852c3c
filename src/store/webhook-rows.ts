/** What both backends' webhook stores share: the shapes, a new webhook's row, a listing row mapped, the not-found error. */
import { NotFoundError } from "../domain/errors.ts";
import type { EventType } from "../domain/events.ts";
import { newWebhookId } from "../domain/ids.ts";

export interface NewWebhook {
  workspaceId: number;
  url: string;
  secret: string;
  /** `null`: every event type but the opt-in ones (OPT_IN_EVENTS), including ones a later version adds. */
  events: EventType[] | null;
  now: string;
}

/** What `webhook list` shows: never the secret. */
export interface WebhookListing {
  id: string;
  workspace: string;
  url: string;
  /** `null` means every event but the opt-in ones. */
  events: EventType[] | null;
  status: "enabled" | "disabled";
  disabledReason: string | null;
  pending: number;
  failed: number;
  createdAt: string;
}

/** Where and how to sign for one webhook, for an attempt made outside the delivery loop (a ping). */
export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
}

/** A webhook as stored. */
export interface WebhookRow {
  id: string;
  workspaceId: number;
  url: string;
  secret: string;
  events: string | null;
  createdAt: string;
}

/** The statements of src/store/webhooks.ts, each dialect's in src/store/sqlite/webhooks.ts and src/store/pg/webhooks.ts. */
export interface WebhookStatements {
  insertWebhook(row: WebhookRow): void;
  /** Every webhook, or one workspace's (null: all), with its pending and failed counts, by workspace slug, creation time and id. */
  webhookListings(workspaceId: number | null): WebhookListingRow[];
  webhookTarget(id: string): WebhookTarget | null;
  /** How many webhooks changed (0 or 1), here and below. */
  setEnabled(id: string, enabled: number, reason: string | null): number;
  setSecret(id: string, secret: string): number;
  deleteWebhook(id: string): number;
  pendingCount(id: string): number;
}

export type WebhookListingRow = Omit<WebhookListing, "events" | "status"> & { events: string | null; enabled: number };

/**
 * The row a new webhook is stored as: a fresh id, the event list as comma-separated text (null: the default set).
 * @example webhookRow({ workspaceId: 1, url, secret, events: ["price.updated"], now }).events // "price.updated"
 */
export function webhookRow(spec: NewWebhook): WebhookRow {
  return { id: newWebhookId(), workspaceId: spec.workspaceId, url: spec.url, secret: spec.secret, events: spec.events === null ? null : spec.events.join(","), createdAt: spec.now };
}

/** @example webhookListing(row).status // "enabled" when the row's enabled is 1 */
export function webhookListing({ enabled, events, ...r }: WebhookListingRow): WebhookListing {
  return {
    id: r.id,
    workspace: r.workspace,
    url: r.url,
    events: events === null ? null : (events.split(",") as EventType[]),
    status: enabled === 1 ? "enabled" : "disabled",
    disabledReason: r.disabledReason,
    pending: r.pending,
    failed: r.failed,
    createdAt: r.createdAt,
  };
}

/** @example throw noWebhook("wh_x") // NotFoundError: No webhook with id wh_x (see feedbase webhook list) */
export const noWebhook = (id: string): NotFoundError => new NotFoundError(`No webhook with id ${id} (see feedbase webhook list)`);
