/** API keys: each operation written once over the statements of src/store/sqlite/keys.ts and src/store/pg/keys.ts. */
import { NotFoundError } from "../domain/errors.ts";
import { hashApiKey } from "../domain/ids.ts";
import { keyAuth, keyListing, newKeyRow, type KeyStatements, type NewKey } from "./key-rows.ts";
import { operation, statements } from "./op.ts";
import { pgKeys } from "./pg/keys.ts";
import { sqliteKeys } from "./sqlite/keys.ts";

export type { KeyAuth, KeyListing, NewKey } from "./key-rows.ts";

const q = statements<KeyStatements>(sqliteKeys, pgKeys);

/**
 * Issue a key; the key itself is returned once and only its SHA-256 is stored.
 * @example const { id, key } = createKey(db, { workspaceId: 1, write: false, rateLimit: 100, label: null, now })
 */
export const createKey = operation(function* (spec: NewKey) {
  const { row, key } = newKeyRow(spec);
  yield* q.insertKey(row);
  return { id: row.id, key };
});

/** @example findKey(db, request.headers.get("x-api-key")) // KeyAuth | null */
export const findKey = operation(function* (key: string) {
  const row = yield* q.keyAuthByHash(hashApiKey(key));
  return row && keyAuth(row);
});

/**
 * The key whose hash is that of `key`, as `key list` shows it; null when none. For an admin holding a
 * key who needs its id.
 * @example identifyKey(db, "fbk_...") // { id: "key_3hT9aQ0xLw2M", workspace: "default", ... }
 */
export const identifyKey = operation(function* (key: string) {
  const row = yield* q.keyListingByHash(hashApiKey(key));
  return row && keyListing(row);
});

/** @example listKeys(db, 1) // every key of workspace 1; listKeys(db) // all keys */
export const listKeys = operation(function* (workspaceId?: number) {
  return (yield* q.keyListings(workspaceId ?? null)).map(keyListing);
});

/** One statement, so no transaction: the running server reads keys per request and sees it at once. */
function found(changed: number, id: string): void {
  if (changed === 0) throw new NotFoundError(`No key with id ${id} (see feedbase key list)`);
}

/** Grant (true) or revoke (false) write permission. @example setKeyWrite(db, "key_3hT9aQ0xLw2M", true) */
export const setKeyWrite = operation(function* (id: string, write: boolean) {
  found(yield* q.setCanWrite(id, write ? 1 : 0), id);
});

/** Activate (true) or deactivate (false): a deactivated key is refused from the next request on. @example setKeyActive(db, "key_3hT9aQ0xLw2M", false) */
export const setKeyActive = operation(function* (id: string, active: boolean) {
  found(yield* q.setActive(id, active ? 1 : 0), id);
});

/** Requests per hour. @example setKeyRateLimit(db, "key_3hT9aQ0xLw2M", 1000) */
export const setKeyRateLimit = operation(function* (id: string, limit: number) {
  found(yield* q.setRateLimit(id, limit), id);
});
