/** SQLite's statements for src/store/delivery-admin.ts. */
import type { DeliveryAdminStatements, DeliveryAttempt, DeliveryListingRow, PendingByWebhook, RetryRow } from "../delivery-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteDeliveryAdmin: SqliteStatements<DeliveryAdminStatements> = {
  deliveries: (db, status, webhookId, workspaceId, id, limit) =>
    db
      .query(
        `SELECT d.id, d.webhook_id AS webhookId, e.type AS event, d.ingredient, d.status, d.attempts,
                d.last_status AS lastStatus, d.last_error AS lastError, d.next_attempt_at AS nextAttemptAt,
                d.created_at AS createdAt, d.updated_at AS updatedAt
         FROM deliveries d JOIN events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
         WHERE (?1 IS NULL OR d.status = ?1) AND (?2 IS NULL OR d.webhook_id = ?2) AND (?3 IS NULL OR w.workspace_id = ?3)
           AND (?5 IS NULL OR d.id = ?5)
         ORDER BY d.event_id DESC, d.webhook_id
         LIMIT ?4`,
      )
      .all(status, webhookId, workspaceId, limit, id) as DeliveryListingRow[],
  attempts: (db, deliveryId) =>
    db.query("SELECT number, at, status, error, ms FROM delivery_attempts WHERE delivery_id = ? ORDER BY number").all(deliveryId) as DeliveryAttempt[],
  retryRow: (db, id) => db.query("SELECT status, webhook_id AS webhookId, ingredient, event_id AS eventId FROM deliveries WHERE id = ?").get(id) as RetryRow | null,
  requeue: (db, id, nowMs, now) => {
    db.query(`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ?`).run(nowMs, now, id);
  },
  dueNowUpTo: (db, row, nowMs, now) =>
    db
      .query(
        `UPDATE deliveries SET next_attempt_at = ?1, updated_at = ?2
         WHERE webhook_id = ?3 AND ingredient = ?4 AND status = 'pending' AND event_id <= ?5 AND next_attempt_at > ?1`,
      )
      .run(nowMs, now, row.webhookId, row.ingredient, row.eventId).changes,
  pendingDueNow: (db, nowMs, now, webhookId) =>
    db
      .query(
        `UPDATE deliveries SET next_attempt_at = ?1, updated_at = ?2
         WHERE status = 'pending' AND next_attempt_at > ?1 AND (?3 IS NULL OR webhook_id = ?3)`,
      )
      .run(nowMs, now, webhookId).changes,
  failedRequeued: (db, nowMs, now, webhookId) =>
    db
      .query(
        `UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?1, updated_at = ?2
         WHERE status = 'failed' AND (?3 IS NULL OR webhook_id = ?3)`,
      )
      .run(nowMs, now, webhookId).changes,
  pendingByWebhook: (db) =>
    db
      .query(
        `SELECT w.id AS webhookId, count(d.id) AS pending, min(d.created_at) AS oldest
         FROM webhooks w LEFT JOIN deliveries d ON d.webhook_id = w.id AND d.status = 'pending'
         GROUP BY w.id ORDER BY w.id`,
      )
      .all() as PendingByWebhook[],
  deleteDelivered: (db, before) => db.query("DELETE FROM deliveries WHERE status = 'delivered' AND updated_at < ?").run(before).changes,
};
