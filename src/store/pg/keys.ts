/** PostgreSQL's statements for src/store/keys.ts. */
import type { KeyAuthRow, KeyListingRow, KeyStatements } from "../key-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgKeys: PgStatements<KeyStatements> = {
  insertKey: async (sql, row) => {
    await sql`INSERT INTO api_keys (id, workspace_id, key_hash, hint, label, can_write, active, rate_limit, created_at)
      VALUES (${row.id}, ${row.workspaceId}, ${row.keyHash}, ${row.hint}, ${row.label}, ${row.canWrite}, 1, ${row.rateLimit}, ${row.createdAt})`;
  },
  keyAuthByHash: async (sql, keyHash) => {
    const rows = (await sql`SELECT id, workspace_id AS "workspaceId", can_write AS "canWrite", active, rate_limit AS "rateLimit"
      FROM api_keys WHERE key_hash = ${keyHash}`) as KeyAuthRow[];
    return rows[0] ?? null;
  },
  keyListingByHash: async (sql, keyHash) => {
    const rows = (await sql`SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
        k.rate_limit AS "rateLimit", k.created_at AS "createdAt"
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.key_hash = ${keyHash}`) as KeyListingRow[];
    return rows[0] ?? null;
  },
  // Slugs are ASCII (lower-case letters, digits, dashes) and key ids base62: COLLATE "C" is SQLite's BINARY.
  keyListings: async (sql, workspaceId) =>
    (await sql`SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
        k.rate_limit AS "rateLimit", k.created_at AS "createdAt"
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE ${workspaceId}::int IS NULL OR k.workspace_id = ${workspaceId}::int
      ORDER BY w.slug COLLATE "C", k.created_at COLLATE "C", k.id COLLATE "C"`) as KeyListingRow[],
  setCanWrite: async (sql, id, canWrite) => (await sql`UPDATE api_keys SET can_write = ${canWrite} WHERE id = ${id} RETURNING id`).length,
  setActive: async (sql, id, active) => (await sql`UPDATE api_keys SET active = ${active} WHERE id = ${id} RETURNING id`).length,
  setRateLimit: async (sql, id, rateLimit) => (await sql`UPDATE api_keys SET rate_limit = ${rateLimit} WHERE id = ${id} RETURNING id`).length,
};
