/**
 * How PostgreSQL (and Bun.sql's client) say the database cannot serve now: not a bug of the request or
 * of feedbase, so the HTTP layer answers 503 with Retry-After instead of the opaque 500.
 */

/** Bun.sql's own codes for a connection that could not be made or was lost. */
const CLIENT_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ERR_POSTGRES_QUERY_CANCELLED",
]);

/**
 * SQLSTATEs: statement timeout (57014), lock timeout (55P03), shutting down or starting up (57P01–57P03),
 * too many connections (53300), and the whole connection-exception class 08.
 */
const SERVER_STATES = new Set(["57014", "55P03", "57P01", "57P02", "57P03", "53300"]);

/**
 * Whether `error` says the database is unreachable, stalled or refusing for now.
 * @example isPgUnavailable({ code: "ERR_POSTGRES_CONNECTION_REFUSED" }) // true
 */
export function isPgUnavailable(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code === "string" && CLIENT_CODES.has(code)) return true;
  return typeof errno === "string" && (SERVER_STATES.has(errno) || errno.startsWith("08"));
}
