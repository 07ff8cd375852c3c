import type { Database } from "bun:sqlite";
import { NotFoundError } from "../domain/errors.ts";
import { hashApiKey } from "../domain/ids.ts";
import { keyAuth, keyListing, newKeyRow, type KeyAuth, type KeyAuthRow, type KeyListing, type KeyListingRow, type NewKey } from "./key-rows.ts";

export type { KeyAuth, KeyListing, NewKey } from "./key-rows.ts";

/**
 * Issue a key; the key itself is returned once and only its SHA-256 is stored.
 * @example const { id, key } = createKey(db, { workspaceId: 1, write: false, rateLimit: 100, label: null, now })
 */
export function createKey(db: Database, spec: NewKey): { id: string; key: string } {
  const { row, key } = newKeyRow(spec);
  db.query(
    `INSERT INTO api_keys (id, workspace_id, key_hash, hint, label, can_write, active, rate_limit, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  ).run(row.id, row.workspaceId, row.keyHash, row.hint, row.label, row.canWrite, row.rateLimit, row.createdAt);
  return { id: row.id, key };
}

/** @example findKey(db, request.headers.get("x-api-key")) // KeyAuth | null */
export function findKey(db: Database, key: string): KeyAuth | null {
  const row = db
    .query(
      `SELECT id, workspace_id AS workspaceId, can_write AS canWrite, active, rate_limit AS rateLimit
       FROM api_keys WHERE key_hash = ?`,
    )
    .get(hashApiKey(key)) as KeyAuthRow | null;
  return row && keyAuth(row);
}

/**
 * The key whose hash is that of `key`, as `key list` shows it; null when none. For an admin holding a
 * key who needs its id.
 * @example identifyKey(db, "fbk_...") // { id: "key_3hT9aQ0xLw2M", workspace: "default", ... }
 */
export function identifyKey(db: Database, key: string): KeyListing | null {
  const row = db
    .query(
      `SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
              k.rate_limit AS rateLimit, k.created_at AS createdAt
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
       WHERE k.key_hash = ?`,
    )
    .get(hashApiKey(key)) as KeyListingRow | null;
  return row && keyListing(row);
}

/** @example listKeys(db, 1) // every key of workspace 1; listKeys(db) // all keys */
export function listKeys(db: Database, workspaceId?: number): KeyListing[] {
  const rows = db
    .query(
      `SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
              k.rate_limit AS rateLimit, k.created_at AS createdAt
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
       WHERE ?1 IS NULL OR k.workspace_id = ?1
       ORDER BY w.slug, k.created_at, k.id`,
    )
    .all(workspaceId ?? null) as KeyListingRow[];
  return rows.map(keyListing);
}

/** One statement, so no transaction: the running server reads keys per request and sees it at once. */
function changeKey(db: Database, id: string, sql: string, value: number): void {
  const result = db.query(sql).run(value, id);
  if (result.changes === 0) throw new NotFoundError(`No key with id ${id} (see feedbase key list)`);
}

/** Grant (true) or revoke (false) write permission. @example setKeyWrite(db, "key_3hT9aQ0xLw2M", true) */
export function setKeyWrite(db: Database, id: string, write: boolean): void {
  changeKey(db, id, "UPDATE api_keys SET can_write = ? WHERE id = ?", write ? 1 : 0);
}

/** Activate (true) or deactivate (false): a deactivated key is refused from the next request on. @example setKeyActive(db, "key_3hT9aQ0xLw2M", false) */
export function setKeyActive(db: Database, id: string, active: boolean): void {
  changeKey(db, id, "UPDATE api_keys SET active = ? WHERE id = ?", active ? 1 : 0);
}

/** Requests per hour. @example setKeyRateLimit(db, "key_3hT9aQ0xLw2M", 1000) */
export function setKeyRateLimit(db: Database, id: string, limit: number): void {
  changeKey(db, id, "UPDATE api_keys SET rate_limit = ? WHERE id = ?", limit);
}
