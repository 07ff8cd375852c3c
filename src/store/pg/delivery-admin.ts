/**
 * PostgreSQL's statements for ../delivery-admin.ts (the delivery loop's own claim and finish are in
 * deliveries.ts here). Epoch-ms columns are BIGINT: read as `::float8`, since Bun.sql reads int8 as
 * text. Sending again also releases any instance's lease (`claimed_by`).
 */
import type { DeliveryAdminStatements, DeliveryAttempt, DeliveryListingRow, PendingByWebhook, RetryRow } from "../delivery-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgDeliveryAdmin: PgStatements<DeliveryAdminStatements> = {
  deliveries: async (sql, status, webhook, workspace, id, limit) =>
    (await sql`SELECT d.id, d.webhook_id AS "webhookId", e.type AS event, d.ingredient, d.status, d.attempts,
        d.last_status AS "lastStatus", d.last_error AS "lastError", d.next_attempt_at::float8 AS "nextAttemptAt",
        d.created_at AS "createdAt", d.updated_at AS "updatedAt"
      FROM deliveries d JOIN events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
      WHERE (${status}::text IS NULL OR d.status = ${status}::text) AND (${webhook}::text IS NULL OR d.webhook_id = ${webhook}::text)
        AND (${workspace}::int IS NULL OR w.workspace_id = ${workspace}::int) AND (${id}::text IS NULL OR d.id = ${id}::text)
      ORDER BY d.event_id DESC, d.webhook_id COLLATE "C"
      LIMIT ${limit}`) as DeliveryListingRow[],
  attempts: async (sql, deliveryId) =>
    (await sql`SELECT number, at, status, error, ms FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY number`) as DeliveryAttempt[],
  retryRow: async (sql, id) => {
    const [row] = (await sql`SELECT status, webhook_id AS "webhookId", ingredient, event_id AS "eventId" FROM deliveries WHERE id = ${id}`) as RetryRow[];
    return row ?? null;
  },
  requeue: async (sql, id, nowMs, now) => {
    await sql`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${nowMs}, updated_at = ${now}, claimed_by = NULL, claimed_until = NULL WHERE id = ${id}`;
  },
  dueNowUpTo: async (sql, row, nowMs, now) =>
    (
      await sql`UPDATE deliveries SET next_attempt_at = ${nowMs}, updated_at = ${now}
        WHERE webhook_id = ${row.webhookId} AND ingredient = ${row.ingredient} AND status = 'pending' AND event_id <= ${row.eventId} AND next_attempt_at > ${nowMs}`
    ).count,
  pendingDueNow: async (sql, nowMs, now, webhook) =>
    (
      await sql`UPDATE deliveries SET next_attempt_at = ${nowMs}, updated_at = ${now}
        WHERE status = 'pending' AND next_attempt_at > ${nowMs} AND (${webhook}::text IS NULL OR webhook_id = ${webhook}::text)`
    ).count,
  failedRequeued: async (sql, nowMs, now, webhook) =>
    (
      await sql`UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${nowMs}, updated_at = ${now}, claimed_by = NULL, claimed_until = NULL
        WHERE status = 'failed' AND (${webhook}::text IS NULL OR webhook_id = ${webhook}::text)`
    ).count,
  pendingByWebhook: async (sql) =>
    (await sql`SELECT w.id AS "webhookId", count(d.id)::int AS pending, min(d.created_at) AS oldest
      FROM webhooks w LEFT JOIN deliveries d ON d.webhook_id = w.id AND d.status = 'pending'
      GROUP BY w.id ORDER BY w.id COLLATE "C"`) as PendingByWebhook[],
  deleteDelivered: async (sql, before) => (await sql`DELETE FROM deliveries WHERE status = 'delivered' AND updated_at < ${before}`).count,
};
