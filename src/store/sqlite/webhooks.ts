/** SQLite's statements for src/store/webhooks.ts. */
import type { SqliteStatements } from "../op.ts";
import type { WebhookListingRow, WebhookStatements, WebhookTarget } from "../webhook-rows.ts";

export const sqliteWebhooks: SqliteStatements<WebhookStatements> = {
  insertWebhook: (db, row) => {
    db.query("INSERT INTO webhooks (id, workspace_id, url, secret, events, enabled, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)").run(
      row.id,
      row.workspaceId,
      row.url,
      row.secret,
      row.events,
      row.createdAt,
    );
  },
  webhookListings: (db, workspaceId) =>
    db
      .query(
        `SELECT w.id, s.slug AS workspace, w.url, w.events, w.enabled, w.disabled_reason AS disabledReason,
                (SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending,
                (SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed') AS failed,
                w.created_at AS createdAt
         FROM webhooks w JOIN workspaces s ON s.id = w.workspace_id
         WHERE ?1 IS NULL OR w.workspace_id = ?1
         ORDER BY s.slug, w.created_at, w.id`,
      )
      .all(workspaceId) as WebhookListingRow[],
  webhookTarget: (db, id) => db.query("SELECT id, url, secret FROM webhooks WHERE id = ?").get(id) as WebhookTarget | null,
  setEnabled: (db, id, enabled, reason) => db.query("UPDATE webhooks SET enabled = ?, disabled_reason = ? WHERE id = ?").run(enabled, reason, id).changes,
  setSecret: (db, id, secret) => db.query("UPDATE webhooks SET secret = ? WHERE id = ?").run(secret, id).changes,
  deleteWebhook: (db, id) => db.query("DELETE FROM webhooks WHERE id = ?").run(id).changes,
  pendingCount: (db, id) => (db.query("SELECT count(*) AS n FROM deliveries WHERE webhook_id = ? AND status = 'pending'").get(id) as { n: number }).n,
};
