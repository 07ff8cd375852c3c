/**
 * PostgreSQL's statements for ../deliveries.ts, and its claims. Several instances may send from one
 * database, so a delivery is claimed before its attempt: `claimed_by` names the instance,
 * `claimed_until` ends the lease (docs/decisions.md#serving-from-postgresql). Epoch-ms columns are
 * BIGINT, read as `::float8` (Bun.sql gives int8 as a string).
 */
import type { SQL } from "bun";
import type { DeliveryStatements, DueDelivery } from "../delivery-rows.ts";
import type { PgStatements } from "../op.ts";
import { liveHolders } from "./live-claims.ts";

/** How long a claim holds: past the 10 s an attempt may take, and what a dead instance's deliveries wait. */
export const LEASE_MS = 60_000;

export const pgDeliveries: PgStatements<DeliveryStatements> = {
  hasSubscriber: async (sql, workspaceId, type) =>
    (await sql`SELECT 1 FROM webhooks WHERE workspace_id = ${workspaceId} AND enabled = 1 AND strpos(',' || events || ',', ',' || ${type}::text || ',') > 0 LIMIT 1`).length > 0,
  // A claim counts while its holder lives (./live-claims.ts).
  webhooksWithDue: async (sql, nowMs) =>
    (
      (await sql`WITH holders AS (${liveHolders(sql)})
        SELECT w.id FROM webhooks w WHERE w.enabled = 1 AND EXISTS (SELECT 1 FROM deliveries d
        WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ${nowMs}::bigint
          AND (d.claimed_until IS NULL OR d.claimed_until < ${nowMs}::bigint OR left(d.claimed_by, 63) NOT IN (SELECT name FROM holders)))`) as { id: string }[]
    ).map((r) => r.id),
  nextDueAfter: async (sql, nowMs) => {
    const [row] = (await sql`SELECT min(next_attempt_at)::float8 AS at FROM deliveries WHERE status = 'pending' AND next_attempt_at > ${nowMs}::bigint`) as { at: number | null }[];
    return row?.at ?? null;
  },
  finishDelivery: async (sql, o) =>
    (
      await sql`UPDATE deliveries SET status = ${o.status}, attempts = attempts + 1, next_attempt_at = ${o.nextAttemptAt}::bigint,
          last_status = ${o.lastStatus}, last_error = ${o.lastError}, updated_at = ${o.now}, claimed_by = NULL, claimed_until = NULL
        WHERE id = ${o.id} AND status = 'pending' AND attempts = ${o.attemptsBefore}`
    ).count,
};

/**
 * Claim up to `free` of a webhook's due deliveries for `instance`, longest due first, skipping any that
 * waits behind an earlier pending event for its ingredient (held or not: the order per webhook and
 * ingredient holds across instances) and any another transaction is claiming (SKIP LOCKED). At most
 * `perWebhook` live claims per webhook in all, whichever instances hold them.
 * @example await claimDue(sql, "host:123:ab12", "wh_Zp8c1LmQ04sA", Date.now(), 4, 4)
 */
export async function claimDue(sql: SQL, instance: string, webhookId: string, nowMs: number, free: number, perWebhook: number, leaseMs = LEASE_MS): Promise<DueDelivery[]> {
  const rows = (await sql`WITH holders AS (${liveHolders(sql)}), live AS (
      SELECT count(*)::int AS n FROM deliveries d WHERE webhook_id = ${webhookId} AND status = 'pending' AND claimed_until >= ${nowMs}::bigint
        AND left(d.claimed_by, 63) IN (SELECT name FROM holders)
    ), picked AS (
      SELECT d.id FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.webhook_id = ${webhookId} AND d.status = 'pending' AND d.next_attempt_at <= ${nowMs}::bigint AND w.enabled = 1
        AND (d.claimed_until IS NULL OR d.claimed_until < ${nowMs}::bigint OR left(d.claimed_by, 63) NOT IN (SELECT name FROM holders))
        AND d.event_id = (SELECT min(p.event_id) FROM deliveries p WHERE p.webhook_id = d.webhook_id AND p.ingredient = d.ingredient AND p.status = 'pending')
      ORDER BY d.next_attempt_at
      LIMIT greatest(0, least(${free}::int, ${perWebhook}::int - (SELECT n FROM live)))
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE deliveries d SET claimed_by = ${instance}, claimed_until = ${nowMs + leaseMs}::bigint
      FROM picked WHERE d.id = picked.id
      RETURNING d.id, d.webhook_id, d.event_id, d.attempts, d.next_attempt_at
    )
    SELECT c.id, c.webhook_id AS "webhookId", w.url, w.secret, e.type AS event, e.number AS "eventId", e.payload, c.attempts
    FROM claimed c JOIN webhooks w ON w.id = c.webhook_id JOIN events e ON e.id = c.event_id
    ORDER BY c.next_attempt_at`) as DueDelivery[];
  return [...rows];
}

/**
 * Give back these deliveries' claims if `instance` still holds them and they are pending (their outcome
 * could not be written; it may have been after all, and then nothing changes).
 * @example await unclaim(sql, instance, ["dl_…"])
 */
export async function unclaim(sql: SQL, instance: string, deliveryIds: readonly string[]): Promise<void> {
  await sql`UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL WHERE id IN ${sql(deliveryIds as string[])} AND claimed_by = ${instance} AND status = 'pending'`;
}

/** Give back what this instance holds and has not finished (a clean stop): another may send it at once. @example await releaseClaims(sql, instance) */
export async function releaseClaims(sql: SQL, instance: string): Promise<void> {
  await sql`UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ${instance} AND status = 'pending'`;
}

/**
 * Give back the claims of instances on this host whose process is gone (`claimed_by` is
 * host:pid:random): after a crash and restart the deliveries go out at once instead of after the lease.
 * A process that may still run is left alone (its claims expire as usual). Returns how many were freed.
 * @example await releaseDeadClaims(sql, hostname(), (pid) => pidAlive(pid)) // 3
 */
export async function releaseDeadClaims(sql: SQL, host: string, alive: (pid: number) => boolean): Promise<number> {
  const holders = (await sql`SELECT DISTINCT claimed_by AS holder FROM deliveries
    WHERE status = 'pending' AND claimed_by LIKE ${host.replace(/[\\%_]/g, "\\$&") + ":%"}`) as { holder: string }[];
  const dead = holders.map((h) => h.holder).filter((holder) => {
    const pid = Number(holder.slice(host.length + 1).split(":")[0]);
    return Number.isInteger(pid) && pid > 0 && !alive(pid);
  });
  if (dead.length === 0) return 0;
  const freed = await sql`UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL
    WHERE status = 'pending' AND claimed_by IN ${sql(dead)}`;
  return freed.count;
}
