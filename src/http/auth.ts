import type { Database } from "bun:sqlite";
import { findKey, type KeyAuth } from "../store/keys.ts";
import { HttpError } from "./errors.ts";

/**
 * The key behind a request, or the spec's 401. Keys are looked up per request so that an admin's
 * `key deactivate` in another process applies to the very next request.
 * @example const key = authenticate(db, req.headers.get("x-api-key"))
 */
export function authenticate(db: Database, header: string | null): KeyAuth {
  if (!header) throw new HttpError(401, "Missing API key");
  const key = findKey(db, header);
  if (!key || !key.active) throw new HttpError(401, "Invalid or inactive API key");
  return key;
}
