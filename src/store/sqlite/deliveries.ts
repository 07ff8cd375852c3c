/**
 * SQLite's statements for src/store/deliveries.ts, and what only SQLite's delivery loop reads: one
 * process sends, so due deliveries are read rather than claimed (PostgreSQL's claims: ../pg/deliveries.ts).
 */
import type { Database } from "bun:sqlite";
import type { DeliveryStatements, DueDelivery } from "../delivery-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteDeliveries: SqliteStatements<DeliveryStatements> = {
  hasSubscriber: (db, workspaceId, type) =>
    db.query("SELECT 1 FROM webhooks WHERE workspace_id = ?1 AND enabled = 1 AND instr(',' || events || ',', ',' || ?2 || ',') > 0 LIMIT 1").get(workspaceId, type) !== null,
  // One index probe per webhook, whatever the backlog.
  webhooksWithDue: (db, nowMs) =>
    (
      db
        .query(
          `SELECT w.id FROM webhooks w
           WHERE w.enabled = 1
             AND EXISTS (SELECT 1 FROM deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ?)`,
        )
        .all(nowMs) as { id: string }[]
    ).map((r) => r.id),
  nextDueAfter: (db, nowMs) =>
    (db.query("SELECT min(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_next WHERE status = 'pending' AND next_attempt_at > ?").get(nowMs) as { at: number | null }).at,
  finishDelivery: (db, o) =>
    db
      .query(
        `UPDATE deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?
         WHERE id = ? AND status = 'pending' AND attempts = ?`,
      )
      .run(o.status, o.nextAttemptAt, o.lastStatus, o.lastError, o.now, o.id, o.attemptsBefore).changes,
};

/**
 * A webhook's due deliveries, longest due first, leaving out any that waits behind an earlier
 * pending event for the same ingredient (docs/decisions.md#webhooks: per webhook and ingredient, in order). Walks the
 * due index in order and stops at `limit`, so a backlog does not make each look slower.
 * @example dueDeliveries(db, "wh_Zp8c1LmQ04sA", Date.now(), 8)
 */
export function dueDeliveries(db: Database, webhookId: string, nowMs: number, limit: number): DueDelivery[] {
  return db
    .query(
      `SELECT d.id, d.webhook_id AS webhookId, w.url, w.secret, e.type AS event, e.number AS eventId, e.payload, d.attempts
       FROM deliveries d INDEXED BY deliveries_due
         JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
       WHERE d.webhook_id = ?1 AND d.status = 'pending' AND d.next_attempt_at <= ?2 AND w.enabled = 1
         AND d.event_id = (SELECT min(p.event_id) FROM deliveries p
                           WHERE p.webhook_id = d.webhook_id AND p.ingredient = d.ingredient AND p.status = 'pending')
       ORDER BY d.next_attempt_at
       LIMIT ?3`,
    )
    .all(webhookId, nowMs, limit) as DueDelivery[];
}
