import type { Database } from "bun:sqlite";
import { requireTransaction } from "./transaction.ts";
import { noWebhook, webhookListing, webhookRow, type NewWebhook, type WebhookListing, type WebhookListingRow, type WebhookTarget } from "./webhook-rows.ts";

export type { NewWebhook, WebhookListing, WebhookTarget } from "./webhook-rows.ts";

/**
 * Register a webhook; deliveries start with the next event that commits.
 * @example const id = createWebhook(db, { workspaceId: 1, url: "https://erp.example/hooks", secret, events: null, now })
 */
export function createWebhook(db: Database, spec: NewWebhook): string {
  const row = webhookRow(spec);
  db.query("INSERT INTO webhooks (id, workspace_id, url, secret, events, enabled, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)").run(
    row.id,
    row.workspaceId,
    row.url,
    row.secret,
    row.events,
    row.createdAt,
  );
  return row.id;
}

/**
 * Webhooks with their state and how many deliveries wait or have given up.
 * @example listWebhooks(db) // all workspaces; listWebhooks(db, 1) // workspace 1 only
 */
export function listWebhooks(db: Database, workspaceId?: number): WebhookListing[] {
  const rows = db
    .query(
      `SELECT w.id, s.slug AS workspace, w.url, w.events, w.enabled, w.disabled_reason AS disabledReason,
              (SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending,
              (SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed') AS failed,
              w.created_at AS createdAt
       FROM webhooks w JOIN workspaces s ON s.id = w.workspace_id
       WHERE ?1 IS NULL OR w.workspace_id = ?1
       ORDER BY s.slug, w.created_at, w.id`,
    )
    .all(workspaceId ?? null) as WebhookListingRow[];
  return rows.map(webhookListing);
}

/**
 * A webhook's URL and current secret; an unknown id is a NotFoundError.
 * @example const target = requireWebhookTarget(db, "wh_Zp8c1LmQ04sA")
 */
export function requireWebhookTarget(db: Database, id: string): WebhookTarget {
  const row = db.query("SELECT id, url, secret FROM webhooks WHERE id = ?").get(id) as WebhookTarget | null;
  if (!row) throw noWebhook(id);
  return row;
}

function changeOne(db: Database, sql: string, id: string, ...args: (string | number | null)[]): void {
  const result = db.query(sql).run(...args, id);
  if (result.changes === 0) throw noWebhook(id);
}

/**
 * Enable or disable a webhook. While disabled it gets no new deliveries and its pending ones wait;
 * `reason` is what `webhook list` shows (a 410 from the receiver, or an admin).
 * @example setWebhookEnabled(db, "wh_Zp8c1LmQ04sA", false, "disabled by an admin at 2026-11-21T14:03:07.123Z")
 */
export function setWebhookEnabled(db: Database, id: string, enabled: boolean, reason: string | null = null): void {
  changeOne(db, "UPDATE webhooks SET enabled = ?, disabled_reason = ? WHERE id = ?", id, enabled ? 1 : 0, enabled ? null : reason);
}

/**
 * Replace the signing secret; the next attempt of every delivery, pending ones included, uses it.
 * @example setWebhookSecret(db, "wh_Zp8c1LmQ04sA", generateSecret())
 */
export function setWebhookSecret(db: Database, id: string, secret: string): void {
  changeOne(db, "UPDATE webhooks SET secret = ? WHERE id = ?", id, secret);
}

/**
 * Delete a webhook and its deliveries (pending ones are cancelled); returns how many were pending.
 * Events stay: they are the price history.
 * @example removeWebhook(db, "wh_Zp8c1LmQ04sA") // 3
 */
export function removeWebhook(db: Database, id: string): number {
  requireTransaction(db, "removeWebhook");
  const { pending } = db.query("SELECT count(*) AS pending FROM deliveries WHERE webhook_id = ? AND status = 'pending'").get(id) as { pending: number };
  // ON DELETE CASCADE takes the deliveries with it.
  changeOne(db, "DELETE FROM webhooks WHERE id = ?", id);
  return pending;
}

/**
 * The number of pending deliveries of a webhook (what `enable` resumes).
 * @example pendingCount(db, "wh_Zp8c1LmQ04sA") // 2
 */
export function pendingCount(db: Database, id: string): number {
  return (db.query("SELECT count(*) AS n FROM deliveries WHERE webhook_id = ? AND status = 'pending'").get(id) as { n: number }).n;
}
