/** SQLite's statements for src/store/price-history.ts: entries go to the unindexed log (docs/decisions.md#price-history-and-formula-costs). */
import type { SqliteStatements } from "../op.ts";
import { maybeFoldStep } from "../price-fold.ts";
import type { PriceHistoryStatements } from "../price-rows.ts";

export const sqlitePriceHistory: SqliteStatements<PriceHistoryStatements> = {
  appendEntry: (db, workspaceId, name, entry) => {
    const appended = db
      .query(
        `INSERT INTO price_log (ingredient_id, price, in_stock, at, source)
         SELECT id, ?, ?, ?, ? FROM ingredients WHERE workspace_id = ? AND name = ?`,
      )
      .run(entry.price, entry.inStock ? 1 : 0, entry.at, entry.source, workspaceId, name);
    if (appended.changes === 1) maybeFoldStep(db, Number(appended.lastInsertRowid));
  },
};
