/** SQLite's statements for src/store/keys.ts. */
import type { KeyAuthRow, KeyListingRow, KeyStatements } from "../key-rows.ts";
import type { SqliteStatements } from "../op.ts";

const LISTING = `SELECT k.id, w.slug AS workspace, k.label, k.hint, k.can_write AS write, k.active,
              k.rate_limit AS rateLimit, k.created_at AS createdAt
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id`;

export const sqliteKeys: SqliteStatements<KeyStatements> = {
  insertKey: (db, row) => {
    db.query(
      `INSERT INTO api_keys (id, workspace_id, key_hash, hint, label, can_write, active, rate_limit, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    ).run(row.id, row.workspaceId, row.keyHash, row.hint, row.label, row.canWrite, row.rateLimit, row.createdAt);
  },
  keyAuthByHash: (db, keyHash) =>
    db
      .query(
        `SELECT id, workspace_id AS workspaceId, can_write AS canWrite, active, rate_limit AS rateLimit
         FROM api_keys WHERE key_hash = ?`,
      )
      .get(keyHash) as KeyAuthRow | null,
  keyListingByHash: (db, keyHash) => db.query(`${LISTING} WHERE k.key_hash = ?`).get(keyHash) as KeyListingRow | null,
  keyListings: (db, workspaceId) =>
    db.query(`${LISTING} WHERE ?1 IS NULL OR k.workspace_id = ?1 ORDER BY w.slug, k.created_at, k.id`).all(workspaceId) as KeyListingRow[],
  setCanWrite: (db, id, canWrite) => db.query("UPDATE api_keys SET can_write = ? WHERE id = ?").run(canWrite, id).changes,
  setActive: (db, id, active) => db.query("UPDATE api_keys SET active = ? WHERE id = ?").run(active, id).changes,
  setRateLimit: (db, id, rateLimit) => db.query("UPDATE api_keys SET rate_limit = ? WHERE id = ?").run(rateLimit, id).changes,
};
