/** SQLite's statements for src/store/price-import.ts. */
import type { SqliteStatements } from "../op.ts";
import type { PricedRow, PriceImportStatements } from "../price-import-rules.ts";

export const sqlitePriceImport: SqliteStatements<PriceImportStatements> = {
  holdOutbox: () => {},
  // The import's transaction is IMMEDIATE: no other writer until it ends, nothing to lock.
  lockedPrice: (db, workspaceId, name, withLast) =>
    db
      .query(
        `SELECT id, price, in_stock AS inStock, CASE WHEN ? THEN (SELECT max(at) FROM price_history WHERE ingredient_id = ingredients.id) END AS last
         FROM ingredients WHERE workspace_id = ? AND name = ?`,
      )
      .get(withLast ? 1 : 0, workspaceId, name) as PricedRow | null,
  loggedLast: (db) => new Map(db.query("SELECT ingredient_id, max(at) FROM price_log GROUP BY ingredient_id").values() as [number, string][]),
  setPrice: (db, id, point, now) => {
    db.query("UPDATE ingredients SET price = ?, in_stock = ?, updated_at = ? WHERE id = ?").run(point.price, point.inStock ? 1 : 0, now, id);
  },
};
