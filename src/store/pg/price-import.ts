/** PostgreSQL's statements for ../price-import.ts. */
import type { PgStatements } from "../op.ts";
import type { PricedRow, PriceImportStatements } from "../price-import-rules.ts";
import { holdOutbox } from "./events.ts";

export const pgPriceImport: PgStatements<PriceImportStatements> = {
  holdOutbox,
  lockedPrice: async (sql, workspaceId, name, withLast) => {
    const [row] = (await sql`SELECT id, price, in_stock AS "inStock",
        CASE WHEN ${withLast}::boolean THEN (SELECT max(at) FROM price_history WHERE ingredient_id = ingredients.id) END AS last
      FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name} FOR UPDATE`) as PricedRow[];
    return row ?? null;
  },
  loggedLast: async () => new Map(),
  setPrice: async (sql, id, point, now) => {
    await sql`UPDATE ingredients SET price = ${point.price}, in_stock = ${point.inStock ? 1 : 0}, updated_at = ${now} WHERE id = ${id}`;
  },
};
