/**
 * Which instances are alive, for the webhook claims (docs/decisions.md#webhooks): each instance
 * connects with its `claimed_by` name as `application_name`, so the sessions PostgreSQL has open now
 * say who is there. A killed process's sockets close with it and its sessions end at once: its claims
 * stop counting toward the per-webhook cap and may be taken over without waiting out the lease. The
 * lease still ends the claims of an instance whose host vanished (its sessions linger until TCP gives up).
 */
import type { SQL } from "bun";

/**
 * PostgreSQL keeps this many bytes of an application_name (NAMEDATALEN - 1; instance names are ASCII):
 * the queries compare `left(claimed_by, 63)`.
 */
export const APPLICATION_NAME_MAX = 63;

/**
 * A subquery of the names of the instances connected to this database now (one column, `name`).
 * @example sql`WITH holders AS (${liveHolders(sql)}) SELECT …`
 */
export function liveHolders(sql: SQL) {
  return sql`SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE datname = current_database() AND application_name <> ''`;
}
