/** PostgreSQL's statements for src/store/webhooks.ts. */
import type { PgStatements } from "../op.ts";
import type { WebhookListingRow, WebhookStatements, WebhookTarget } from "../webhook-rows.ts";

export const pgWebhooks: PgStatements<WebhookStatements> = {
  insertWebhook: async (sql, row) => {
    await sql`INSERT INTO webhooks (id, workspace_id, url, secret, events, enabled, created_at)
      VALUES (${row.id}, ${row.workspaceId}, ${row.url}, ${row.secret}, ${row.events}, 1, ${row.createdAt})`;
  },
  // Slugs, times and ids are ASCII: COLLATE "C" is SQLite's BINARY. Counts as int (Bun reads bigint as text).
  webhookListings: async (sql, workspaceId) =>
    (await sql`SELECT w.id, s.slug AS workspace, w.url, w.events, w.enabled, w.disabled_reason AS "disabledReason",
        (SELECT count(*)::int FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending,
        (SELECT count(*)::int FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed') AS failed,
        w.created_at AS "createdAt"
      FROM webhooks w JOIN workspaces s ON s.id = w.workspace_id
      WHERE ${workspaceId}::int IS NULL OR w.workspace_id = ${workspaceId}::int
      ORDER BY s.slug COLLATE "C", w.created_at COLLATE "C", w.id COLLATE "C"`) as WebhookListingRow[],
  webhookTarget: async (sql, id) => {
    const [row] = (await sql`SELECT id, url, secret FROM webhooks WHERE id = ${id}`) as WebhookTarget[];
    return row ?? null;
  },
  setEnabled: async (sql, id, enabled, reason) => (await sql`UPDATE webhooks SET enabled = ${enabled}, disabled_reason = ${reason} WHERE id = ${id} RETURNING id`).length,
  setSecret: async (sql, id, secret) => (await sql`UPDATE webhooks SET secret = ${secret} WHERE id = ${id} RETURNING id`).length,
  deleteWebhook: async (sql, id) => (await sql`DELETE FROM webhooks WHERE id = ${id} RETURNING id`).length,
  pendingCount: async (sql, id) => {
    const [row] = (await sql`SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = ${id} AND status = 'pending'`) as { n: number }[];
    return row!.n;
  },
};
