import type { SQL } from "bun";
import { NotFoundError } from "../../domain/errors.ts";
import { hashApiKey } from "../../domain/ids.ts";
import { keyAuth, keyListing, newKeyRow, type KeyAuth, type KeyAuthRow, type KeyListing, type KeyListingRow, type NewKey } from "../key-rows.ts";

/** PostgreSQL's twins of ../keys.ts: same arguments after the connection, same results. */

/**
 * Issue a key; the key itself is returned once and only its SHA-256 is stored.
 * @example const { id, key } = await createKey(tx, { workspaceId: 1, write: false, rateLimit: 100, label: null, now })
 */
export async function createKey(sql: SQL, spec: NewKey): Promise<{ id: string; key: string }> {
  const { row, key } = newKeyRow(spec);
  await sql`INSERT INTO api_keys (id, workspace_id, key_hash, hint, label, can_write, active, rate_limit, created_at)
    VALUES (${row.id}, ${row.workspaceId}, ${row.keyHash}, ${row.hint}, ${row.label}, ${row.canWrite}, 1, ${row.rateLimit}, ${row.createdAt})`;
  return { id: row.id, key };
}

/** @example await findKey(sql, request.headers.get("x-api-key")) // KeyAuth | null */
export async function findKey(sql: SQL, key: string): Promise<KeyAuth | null> {
  const rows = (await sql`SELECT id, workspace_id AS "workspaceId", can_write AS "canWrite", active, rate_limit AS "rateLimit"
    FROM api_keys WHERE key_hash = ${hashApiKey(key)}`) as KeyAuthRow[];
  return rows[0] ? keyAuth(rows[0]) : null;
}

/** @example await identifyKey(sql, "fbk_...") // { id: "key_3hT9aQ0xLw2M", workspace: "default", ... } */
export async function identifyKey(sql: SQL, key: string): Promise<KeyListing | null> {
  const rows = (await sql`SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
      k.rate_limit AS "rateLimit", k.created_at AS "createdAt"
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE k.key_hash = ${hashApiKey(key)}`) as KeyListingRow[];
  return rows[0] ? keyListing(rows[0]) : null;
}

/** @example await listKeys(sql, 1) // every key of workspace 1; await listKeys(sql) // all keys */
export async function listKeys(sql: SQL, workspaceId?: number): Promise<KeyListing[]> {
  const id = workspaceId ?? null;
  // Slugs are ASCII (lower-case letters, digits, dashes) and key ids base62: COLLATE "C" is SQLite's BINARY.
  const rows = (await sql`SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
      k.rate_limit AS "rateLimit", k.created_at AS "createdAt"
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE ${id}::int IS NULL OR k.workspace_id = ${id}::int
    ORDER BY w.slug COLLATE "C", k.created_at COLLATE "C", k.id COLLATE "C"`) as KeyListingRow[];
  return rows.map(keyListing);
}

function found(rows: unknown[], id: string): void {
  if (rows.length === 0) throw new NotFoundError(`No key with id ${id} (see feedbase key list)`);
}

/** Grant (true) or revoke (false) write permission. @example await setKeyWrite(tx, "key_3hT9aQ0xLw2M", true) */
export async function setKeyWrite(sql: SQL, id: string, write: boolean): Promise<void> {
  found(await sql`UPDATE api_keys SET can_write = ${write ? 1 : 0} WHERE id = ${id} RETURNING id`, id);
}

/** Activate (true) or deactivate (false). @example await setKeyActive(tx, "key_3hT9aQ0xLw2M", false) */
export async function setKeyActive(sql: SQL, id: string, active: boolean): Promise<void> {
  found(await sql`UPDATE api_keys SET active = ${active ? 1 : 0} WHERE id = ${id} RETURNING id`, id);
}

/** Requests per hour. @example await setKeyRateLimit(tx, "key_3hT9aQ0xLw2M", 1000) */
export async function setKeyRateLimit(sql: SQL, id: string, limit: number): Promise<void> {
  found(await sql`UPDATE api_keys SET rate_limit = ${limit} WHERE id = ${id} RETURNING id`, id);
}
