/**
 * PostgreSQL's twins of the outbox and delivery-loop parts of ../deliveries.ts. Several instances may
 * send from one database, so a delivery is claimed before its attempt: `claimed_by` names the
 * instance, `claimed_until` ends the lease (docs/decisions.md#serving-from-postgresql). Epoch-ms columns are BIGINT,
 * read as `::float8` (Bun.sql gives int8 as a string).
 */
import type { SQL } from "bun";
import { newDeliveryId } from "../../domain/ids.ts";
import { OPT_IN_EVENTS, type EventType } from "../../domain/events.ts";
import type { AttemptOutcome, CommittedEvent, DueDelivery, WebhookDisable } from "../deliveries.ts";
import { recordAttempt } from "../attempts.ts";
import { pipelined } from "./pipelined.ts";
import { setWebhookEnabled } from "../webhooks.ts";
import { liveHolders } from "./live-claims.ts";

/** How long a claim holds: past the 10 s an attempt may take, and what a dead instance's deliveries wait. */
export const LEASE_MS = 60_000;

/** The enabled webhooks an event of `type` goes to, by id. @example await subscribers(tx, 1, "price.updated") // ["wh_…"] */
export async function subscribers(sql: SQL, workspaceId: number, type: EventType): Promise<string[]> {
  const optIn = OPT_IN_EVENTS.includes(type) ? 1 : 0;
  const rows = (await sql`SELECT id FROM webhooks WHERE workspace_id = ${workspaceId} AND enabled = 1
    AND ((events IS NULL AND ${optIn}::int = 0) OR strpos(',' || events || ',', ',' || ${type}::text || ',') > 0) ORDER BY id`) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * One pending delivery per webhook of {@link subscribers}, in the event's transaction; the inserts are
 * sent together. @example await fanOut(tx, event, await subscribers(tx, 1, event.type)) // 2
 */
export async function fanOut(sql: SQL, event: CommittedEvent, webhooks: readonly string[]): Promise<number> {
  const dueAt = Date.parse(event.now);
  await pipelined(
    ...webhooks.map(
      (id) => sql`INSERT INTO deliveries (id, webhook_id, event_id, ingredient, status, attempts, next_attempt_at, created_at, updated_at)
        VALUES (${newDeliveryId()}, ${id}, ${event.id}, ${event.ingredient}, 'pending', 0, ${dueAt}::bigint, ${event.now}, ${event.now})`.execute() as Promise<unknown>,
    ),
  );
  return webhooks.length;
}

/** Whether an enabled webhook names this (opt-in) event type. @example await hasSubscriber(tx, 1, "formula.cost_changed") // false */
export async function hasSubscriber(sql: SQL, workspaceId: number, type: EventType): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM webhooks WHERE workspace_id = ${workspaceId} AND enabled = 1 AND strpos(',' || events || ',', ',' || ${type}::text || ',') > 0 LIMIT 1`;
  return rows.length > 0;
}

/**
 * Enabled webhooks with a pending delivery due at `nowMs` that no live instance holds (./live-claims.ts).
 * @example await webhooksWithDueDeliveries(sql, Date.now())
 */
export async function webhooksWithDueDeliveries(sql: SQL, nowMs: number): Promise<string[]> {
  const rows = (await sql`WITH holders AS (${liveHolders(sql)})
    SELECT w.id FROM webhooks w WHERE w.enabled = 1 AND EXISTS (SELECT 1 FROM deliveries d
    WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ${nowMs}::bigint
      AND (d.claimed_until IS NULL OR d.claimed_until < ${nowMs}::bigint OR left(d.claimed_by, 63) NOT IN (SELECT name FROM holders)))`) as { id: string }[];
  return rows.map((r) => r.id);
}

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
    SELECT c.id, c.webhook_id AS "webhookId", w.url, w.secret, e.type AS event, c.event_id AS "eventId", e.payload, c.attempts
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

/** The earliest time after `nowMs` a pending delivery falls due, or null. @example await nextDueAfter(sql, Date.now()) */
export async function nextDueAfter(sql: SQL, nowMs: number): Promise<number | null> {
  const [row] = (await sql`SELECT min(next_attempt_at)::float8 AS at FROM deliveries WHERE status = 'pending' AND next_attempt_at > ${nowMs}::bigint`) as { at: number | null }[];
  return row?.at ?? null;
}

/**
 * Record a finished attempt with its history entry, and disable the webhook when it answered 410, in
 * one transaction. False when the delivery changed meanwhile; then nothing is written.
 * @example await finishAttempt(sql, outcome, null)
 */
export async function finishAttempt(sql: SQL, o: AttemptOutcome, disable: WebhookDisable | null): Promise<boolean> {
  return sql.begin(async (tx) => {
    const result = await tx`UPDATE deliveries SET status = ${o.status}, attempts = attempts + 1, next_attempt_at = ${o.nextAttemptAt}::bigint,
        last_status = ${o.lastStatus}, last_error = ${o.lastError}, updated_at = ${o.now}, claimed_by = NULL, claimed_until = NULL
      WHERE id = ${o.id} AND status = 'pending' AND attempts = ${o.attemptsBefore}`;
    if (result.count !== 1) return false;
    await recordAttempt(tx, o.id, { at: o.startedAt, status: o.lastStatus, error: o.lastError, ms: o.ms });
    if (disable !== null) await setWebhookEnabled(tx, disable.webhookId, false, disable.reason);
    return true;
  });
}
