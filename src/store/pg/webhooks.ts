import type { SQL } from "bun";
import { noWebhook, webhookListing, webhookRow, type NewWebhook, type WebhookListing, type WebhookListingRow, type WebhookTarget } from "../webhook-rows.ts";

/** PostgreSQL's twins of ../webhooks.ts: same arguments after the connection, same results. */

/** @example const id = await createWebhook(tx, { workspaceId: 1, url: "https://erp.example/hooks", secret, events: null, now }) */
export async function createWebhook(sql: SQL, spec: NewWebhook): Promise<string> {
  const row = webhookRow(spec);
  await sql`INSERT INTO webhooks (id, workspace_id, url, secret, events, enabled, created_at)
    VALUES (${row.id}, ${row.workspaceId}, ${row.url}, ${row.secret}, ${row.events}, 1, ${row.createdAt})`;
  return row.id;
}

/** @example await listWebhooks(sql) // all workspaces; await listWebhooks(sql, 1) // workspace 1 only */
export async function listWebhooks(sql: SQL, workspaceId?: number): Promise<WebhookListing[]> {
  const ws = workspaceId ?? null;
  // Slugs, times and ids are ASCII: COLLATE "C" is SQLite's BINARY. Counts as int (Bun reads bigint as text).
  const rows = (await sql`SELECT w.id, s.slug AS workspace, w.url, w.events, w.enabled, w.disabled_reason AS "disabledReason",
      (SELECT count(*)::int FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending,
      (SELECT count(*)::int FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed') AS failed,
      w.created_at AS "createdAt"
    FROM webhooks w JOIN workspaces s ON s.id = w.workspace_id
    WHERE ${ws}::int IS NULL OR w.workspace_id = ${ws}::int
    ORDER BY s.slug COLLATE "C", w.created_at COLLATE "C", w.id COLLATE "C"`) as WebhookListingRow[];
  return rows.map(webhookListing);
}

/** @example const target = await requireWebhookTarget(sql, "wh_Zp8c1LmQ04sA") */
export async function requireWebhookTarget(sql: SQL, id: string): Promise<WebhookTarget> {
  const [row] = (await sql`SELECT id, url, secret FROM webhooks WHERE id = ${id}`) as WebhookTarget[];
  if (!row) throw noWebhook(id);
  return row;
}

/** @example await setWebhookEnabled(tx, "wh_Zp8c1LmQ04sA", false, "disabled by an admin at 2026-11-21T14:03:07.123Z") */
export async function setWebhookEnabled(sql: SQL, id: string, enabled: boolean, reason: string | null = null): Promise<void> {
  const rows = await sql`UPDATE webhooks SET enabled = ${enabled ? 1 : 0}, disabled_reason = ${enabled ? null : reason} WHERE id = ${id} RETURNING id`;
  if (rows.length === 0) throw noWebhook(id);
}

/** @example await setWebhookSecret(tx, "wh_Zp8c1LmQ04sA", generateSecret()) */
export async function setWebhookSecret(sql: SQL, id: string, secret: string): Promise<void> {
  const rows = await sql`UPDATE webhooks SET secret = ${secret} WHERE id = ${id} RETURNING id`;
  if (rows.length === 0) throw noWebhook(id);
}

/** Delete a webhook and its deliveries; returns how many were pending. @example await removeWebhook(tx, "wh_Zp8c1LmQ04sA") // 3 */
export async function removeWebhook(sql: SQL, id: string): Promise<number> {
  const pending = await pendingCount(sql, id);
  // ON DELETE CASCADE takes the deliveries (and their attempts) with it.
  const rows = await sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`;
  if (rows.length === 0) throw noWebhook(id);
  return pending;
}

/** @example await pendingCount(sql, "wh_Zp8c1LmQ04sA") // 2 */
export async function pendingCount(sql: SQL, id: string): Promise<number> {
  const [row] = (await sql`SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = ${id} AND status = 'pending'`) as { n: number }[];
  return row!.n;
}
