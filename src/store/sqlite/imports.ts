/** SQLite's statements for src/store/imports.ts. */
import type { ImportStatements, StoredRow } from "../import-rules.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteImports: SqliteStatements<ImportStatements> = {
  names: (db, workspaceId) => (db.query("SELECT name FROM ingredients WHERE workspace_id = ?").values(workspaceId) as [string][]).map(([name]) => name),
  holdOutbox: () => {},
  // The import's transaction is IMMEDIATE: no other writer until it ends, nothing to lock.
  lockedRow: (db, workspaceId, name) =>
    db.query("SELECT category, price, in_stock AS inStock, nutrients FROM ingredients WHERE workspace_id = ? AND name = ?").get(workspaceId, name) as StoredRow | null,
  updateRow: (db, workspaceId, name, fields, co2e, updatedAt) => {
    db.query(
      "UPDATE ingredients SET category = ?, price = ?, in_stock = ?, co2e = CASE WHEN ? THEN ? ELSE co2e END, nutrients = ?, nutrient_count = ?, updated_at = ? WHERE workspace_id = ? AND name = ?",
    ).run(
      fields.category,
      fields.price,
      fields.inStock ? 1 : 0,
      co2e !== undefined ? 1 : 0,
      co2e ?? null,
      JSON.stringify(fields.nutrients),
      Object.keys(fields.nutrients).length,
      updatedAt,
      workspaceId,
      name,
    );
  },
};
