import { failureOf } from "../failures.ts";

/**
 * The one HTTP failure type: handlers throw it (or an error of src/failures.ts) and the server turns
 * it into the spec's error object. Extra headers ride along (`Allow`, `Retry-After`).
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
 * Map any thrown value to an HttpError by the failure table; anything else becomes the opaque 500.
 * @example toHttpError(new NotFoundError("Ingredient not found: Maize")).status // 404
 */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  const http = failureOf(error)?.http;
  if (!http) return null;
  const headers = typeof http.headers === "function" ? http.headers(error as Error) : http.headers;
  return new HttpError(http.status, http.message ?? (error as Error).message, headers);
}
