import type { KeyAuth } from "../store/keys.ts";
import { HttpError } from "./errors.ts";
import type { ReadCache } from "./read-cache.ts";

/** The key behind an `X-API-Key` value, active or not, null when unknown: at once (SQLite) or later (PostgreSQL). */
export type FindKey = (key: string) => KeyAuth | null | Promise<KeyAuth | null>;

/**
 * The key behind a request, or the spec's 401. Known keys are remembered for the current data
 * generation only, so an admin's `key deactivate` in another process applies to the very next request.
 * Unknown keys are not remembered: a flood of made-up keys must not push out the real ones. A
 * remembered key answers synchronously on either backend; only a lookup may be a promise.
 * @example const key = authenticate((k) => findKey(db, k), req.headers.get("x-api-key"), cache, version.current())
 */
export function authenticate(findKey: FindKey, header: string | null, cache: ReadCache<KeyAuth>, generation: number): KeyAuth | Promise<KeyAuth> {
  if (!header) throw new HttpError(401, "Missing API key");
  const kept = cache.peek(generation, header);
  if (kept) return accepted(kept);
  const found = findKey(header);
  if (found instanceof Promise) return found.then((key) => accepted(remember(key, header, cache, generation)));
  return accepted(remember(found, header, cache, generation));
}

function remember(key: KeyAuth | null, header: string, cache: ReadCache<KeyAuth>, generation: number): KeyAuth | null {
  return key === null ? null : cache.put(generation, header, key);
}

function accepted(key: KeyAuth | null): KeyAuth {
  if (!key || !key.active) throw new HttpError(401, "Invalid or inactive API key");
  return key;
}
