import { ConflictError, NotFoundError, ValidationError } from "../domain/errors.ts";
import { isStorageFull } from "../store/db.ts";
import { DatabaseTimeout } from "../store/deadline.ts";
import { isPgStorageFull } from "../store/pg/readiness.ts";
import { isPgUnavailable } from "../store/pg/unavailable.ts";
import { SolverFailure, SolverUnavailable } from "../optimize/solver-errors.ts";

/** Seconds a client is asked to wait when the database's disk is full: long enough for an admin to act. */
const STORAGE_FULL_RETRY_AFTER = "30";
/** Seconds a client is asked to wait when the database is down or stalled: a restart or failover takes seconds. */
const UNAVAILABLE_RETRY_AFTER = "5";

/**
 * The one HTTP failure type: handlers throw it (or a domain error) and the server turns it into the
 * spec's error object. Extra headers ride along (`Allow`, `Retry-After`).
 * @example throw new HttpError(405, "Method not allowed", { Allow: "GET, HEAD" })
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Map any thrown value to an HttpError; anything unexpected becomes the opaque 500.
 * @example toHttpError(new NotFoundError("Ingredient not found: Maize")).status // 404
 */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof ValidationError) return new HttpError(400, error.message);
  if (error instanceof NotFoundError) return new HttpError(404, error.message);
  if (error instanceof ConflictError) return new HttpError(409, error.message);
  if (error instanceof SolverUnavailable) return new HttpError(503, error.message, { "Retry-After": String(error.retryAfterSeconds) });
  if (error instanceof SolverFailure) return new HttpError(422, error.message);
  // Not a bug of the request or of feedbase: the write did not happen and may be sent again later.
  if (isStorageFull(error) || isPgStorageFull(error)) return new HttpError(503, "Storage full", { "Retry-After": STORAGE_FULL_RETRY_AFTER });
  // The same for a database that is down, stalled or timed out; a write refused after its deadline may
  // still have been stored (docs/decisions.md#database-faults), which sending it again shows.
  if (error instanceof DatabaseTimeout || isPgUnavailable(error)) return new HttpError(503, "Database unavailable", { "Retry-After": UNAVAILABLE_RETRY_AFTER });
  return null;
}
