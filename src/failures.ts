/**
 * The one failure table: every failure feedbase knows by kind, with the HTTP status and headers it is
 * answered with, the one line a command prints, and the command's exit code; beside it, the OpenAPI
 * text of every error status. The HTTP layer (src/http/errors.ts), the CLI (cli/failure.ts) and the
 * OpenAPI document (src/http/openapi.ts) read it; none keeps a mapping of its own. Light on purpose:
 * the CLI loads it for every command line. docs/decisions.md#one-failure-table.
 */
import { CliFailure, ConflictError, NotFoundError, UsageError, ValidationError } from "./domain/errors.ts";
import { SolverFailure, SolverUnavailable } from "./optimize/solver-errors.ts";
import { DataFileError, isStorageFull } from "./store/db.ts";
import { DatabaseTimeout } from "./store/deadline.ts";
import { isPgStorageFull } from "./store/pg/readiness.ts";
import { isPgUnavailable } from "./store/pg/unavailable.ts";

/** Seconds a client is asked to wait when the database's disk is full: long enough for an admin to act. */
const STORAGE_FULL_RETRY_AFTER = "30";
/** Seconds a client is asked to wait when the database is down or stalled: a restart or failover takes seconds. */
const UNAVAILABLE_RETRY_AFTER = "5";

export interface Failure {
  /** What it is, in words. */
  kind: string;
  matches(error: unknown): boolean;
  /** The HTTP answer; null for what only commands meet (the server answers those as an opaque 500). */
  http: { status: number; message?: string; headers?: Record<string, string> | ((error: Error) => Record<string, string>) } | null;
  /** The one line a command prints after `error: `; the error's own message when absent. */
  line?: (error: Error) => string;
  /** 1: an action refused; 2: bad usage. */
  exit: 1 | 2;
}

/** PostgreSQL's own words for a failure mid-command, in one line (they never hold the URL). */
const postgresLine = (error: Error) =>
  `PostgreSQL: ${error.message.replace(/\s+/g, " ")}${(error as { errno?: string }).errno ? ` (SQLSTATE ${(error as { errno?: string }).errno})` : ""}`;

/** First match wins. */
export const FAILURES: readonly Failure[] = [
  { kind: "a broken rule", matches: (e) => e instanceof ValidationError, http: { status: 400 }, exit: 1 },
  { kind: "not found", matches: (e) => e instanceof NotFoundError, http: { status: 404 }, exit: 1 },
  { kind: "a conflict with what is stored", matches: (e) => e instanceof ConflictError, http: { status: 409 }, exit: 1 },
  {
    // A solve past its time limit, or refused by a full queue: the same request may succeed later. Commands solve in their own process (no pool), so one there is a bug.
    kind: "the solver unavailable for now",
    matches: (e) => e instanceof SolverUnavailable,
    http: { status: 503, headers: (e) => ({ "Retry-After": String((e as SolverUnavailable).retryAfterSeconds) }) },
    line: (e) => `unexpected failure: ${String(e.stack ?? e)}`,
    exit: 1,
  },
  { kind: "a problem the solver could not take", matches: (e) => e instanceof SolverFailure, http: { status: 422 }, exit: 1 },
  {
    // Not a bug of the request or of feedbase: the write did not happen and may be sent again later.
    kind: "the data file's disk is full",
    matches: isStorageFull,
    http: { status: 503, message: "Storage full", headers: { "Retry-After": STORAGE_FULL_RETRY_AFTER } },
    line: () => "The data file's disk is full: nothing was written; free space and run the command again",
    exit: 1,
  },
  { kind: "PostgreSQL's disk is full", matches: isPgStorageFull, http: { status: 503, message: "Storage full", headers: { "Retry-After": STORAGE_FULL_RETRY_AFTER } }, line: postgresLine, exit: 1 },
  {
    // The same for a database that is down, stalled or timed out; a write refused after its deadline may
    // still have been stored (docs/decisions.md#database-faults), which sending it again shows.
    kind: "the database unavailable for now",
    matches: (e) => e instanceof DatabaseTimeout || isPgUnavailable(e),
    http: { status: 503, message: "Database unavailable", headers: { "Retry-After": UNAVAILABLE_RETRY_AFTER } },
    // A command says what PostgreSQL said, as for any of its failures (a deadline is the server's alone).
    line: (e) => ((e as Error).name === "PostgresError" ? postgresLine(e) : `unexpected failure: ${String(e.stack ?? e)}`),
    exit: 1,
  },
  { kind: "a data file or database that cannot be used", matches: (e) => e instanceof DataFileError, http: null, exit: 1 },
  { kind: "a command's action refused", matches: (e) => e instanceof CliFailure, http: null, exit: 1 },
  // commander's own (an unknown option, a bad value) carry its code; ours are UsageError.
  { kind: "bad usage", matches: (e) => e instanceof UsageError || (e as { code?: unknown } | null)?.code === "commander.invalidArgument", http: null, exit: 2 },
  { kind: "PostgreSQL refused or the connection broke", matches: (e) => (e as Error | null)?.name === "PostgresError", http: null, line: postgresLine, exit: 1 },
];

/**
 * The row of `error`, or null for an unexpected failure (a bug: 500 over HTTP, a stack from a command).
 * @example failureOf(new NotFoundError("Ingredient not found: Maize"))?.http?.status // 404
 */
export function failureOf(error: unknown): Failure | null {
  for (const failure of FAILURES) if (failure.matches(error)) return failure;
  return null;
}

/** What each error status means, as the OpenAPI document says it (every status a route can answer). */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad request: invalid JSON, a body that is not an object, a field or parameter that breaks a rule (the message names it), or a malformed escape in the path.",
  401: "Missing API key, invalid or inactive API key, or rate limit exceeded (with Retry-After); on /metrics, a missing or wrong bearer token.",
  403: "Write permission required.",
  404: "Not found (unknown path, ingredient name or formula id; another workspace's data is not found).",
  405: "Method not allowed (see the Allow header).",
  409: "An ingredient with that name already exists.",
  413: "Request body over 1 MiB.",
  422: "The solver could not solve the problem the input makes (the message says what HiGHS reported); sending the same input again gets the same answer.",
  500: "Internal server error (details are only in the server log, under the request id).",
  503: "A write while the data file's disk is full (`Storage full`, nothing was written, with Retry-After); any request behind a key while the database is down, stalled or locked (`Database unavailable`, with Retry-After; a write refused after waiting may have been stored); a solve past its time limit (`Solver time limit exceeded`) or refused because too many wait (`Solver busy: too many solves waiting`), with Retry-After; on /readyz, not ready (`failed` lists the failed checks).",
};
