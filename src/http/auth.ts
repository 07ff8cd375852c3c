import type { KeyAuth } from "../store/keys.ts";
import { HttpError } from "./errors.ts";
import type { ReadCache } from "./read-cache.ts";

/**
 * The key behind a request, or the spec's 401. Known keys are remembered for the current data
 * generation only, so an admin's `key deactivate` in another process applies to the very next request.
 * Unknown keys are not remembered: a flood of made-up keys must not push out the real ones.
 * @example const key = authenticate((k) => findKey(db, k), req.headers.get("x-api-key"), cache, version.current())
 */
export function authenticate(findKey: (key: string) => KeyAuth | null, header: string | null, cache: ReadCache<KeyAuth>, generation: number): KeyAuth {
  if (!header) throw new HttpError(401, "Missing API key");
  const key = cache.get(generation, header, () => findKey(header) ?? undefined);
  if (!key || !key.active) throw new HttpError(401, "Invalid or inactive API key");
  return key;
}
