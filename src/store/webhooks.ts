/** Webhooks: each operation written once over the statements of src/store/sqlite/webhooks.ts and src/store/pg/webhooks.ts. */
import { operation, statements, tx } from "./op.ts";
import { pgWebhooks } from "./pg/webhooks.ts";
import { sqliteWebhooks } from "./sqlite/webhooks.ts";
import { noWebhook, webhookListing, webhookRow, type NewWebhook, type WebhookStatements } from "./webhook-rows.ts";

export type { NewWebhook, WebhookListing, WebhookTarget } from "./webhook-rows.ts";

const q = statements<WebhookStatements>(sqliteWebhooks, pgWebhooks);

function changed(count: number, id: string): void {
  if (count === 0) throw noWebhook(id);
}

/**
 * Register a webhook; deliveries start with the next event that commits.
 * @example const id = createWebhook(db, { workspaceId: 1, url: "https://erp.example/hooks", secret, events: null, now })
 */
export const createWebhook = operation(function* (spec: NewWebhook) {
  const row = webhookRow(spec);
  yield* q.insertWebhook(row);
  return row.id;
});

/**
 * Webhooks with their state and how many deliveries wait or have given up.
 * @example listWebhooks(db) // all workspaces; listWebhooks(db, 1) // workspace 1 only
 */
export const listWebhooks = operation(function* (workspaceId?: number) {
  return (yield* q.webhookListings(workspaceId ?? null)).map(webhookListing);
});

/**
 * A webhook's URL and current secret; an unknown id is a NotFoundError.
 * @example const target = requireWebhookTarget(db, "wh_Zp8c1LmQ04sA")
 */
export const requireWebhookTarget = operation(function* (id: string) {
  const row = yield* q.webhookTarget(id);
  if (!row) throw noWebhook(id);
  return row;
});

/**
 * Enable or disable a webhook. While disabled it gets no new deliveries and its pending ones wait;
 * `reason` is what `webhook list` shows (a 410 from the receiver, or an admin).
 * @example setWebhookEnabled(db, "wh_Zp8c1LmQ04sA", false, "disabled by an admin at 2026-11-21T14:03:07.123Z")
 */
export const setWebhookEnabled = operation(function* (id: string, enabled: boolean, reason: string | null = null) {
  changed(yield* q.setEnabled(id, enabled ? 1 : 0, enabled ? null : reason), id);
});

/**
 * Replace the signing secret; the next attempt of every delivery, pending ones included, uses it.
 * @example setWebhookSecret(db, "wh_Zp8c1LmQ04sA", generateSecret())
 */
export const setWebhookSecret = operation(function* (id: string, secret: string) {
  changed(yield* q.setSecret(id, secret), id);
});

/**
 * Delete a webhook and its deliveries (pending ones are cancelled); returns how many were pending.
 * Events stay: they are the price history.
 * @example removeWebhook(db, "wh_Zp8c1LmQ04sA") // 3
 */
export const removeWebhook = operation(function* (id: string) {
  yield* tx.requireTransaction("removeWebhook");
  const pending = yield* q.pendingCount(id);
  // ON DELETE CASCADE takes the deliveries (and their attempts) with it.
  changed(yield* q.deleteWebhook(id), id);
  return pending;
});

/**
 * The number of pending deliveries of a webhook (what `enable` resumes).
 * @example pendingCount(db, "wh_Zp8c1LmQ04sA") // 2
 */
export const pendingCount = operation(function* (id: string) {
  return yield* q.pendingCount(id);
});
