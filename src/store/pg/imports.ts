/** PostgreSQL's statements for ../imports.ts. */
import type { ImportStatements, StoredRow } from "../import-rules.ts";
import type { PgStatements } from "../op.ts";
import { holdOutbox } from "./events.ts";

export const pgImports: PgStatements<ImportStatements> = {
  names: async (sql, workspaceId) => ((await sql`SELECT name FROM ingredients WHERE workspace_id = ${workspaceId}`.values()) as [string][]).map(([name]) => name),
  holdOutbox,
  lockedRow: async (sql, workspaceId, name) => {
    const [row] = (await sql`SELECT category, price, in_stock AS "inStock", nutrients FROM ingredients
      WHERE workspace_id = ${workspaceId} AND name = ${name} FOR UPDATE`) as StoredRow[];
    return row ?? null;
  },
  updateRow: async (sql, workspaceId, name, fields, co2e, updatedAt) => {
    await sql`UPDATE ingredients SET category = ${fields.category}, price = ${fields.price}, in_stock = ${fields.inStock ? 1 : 0},
        co2e = CASE WHEN ${co2e !== undefined}::boolean THEN ${co2e ?? null}::float8 ELSE co2e END, nutrients = ${JSON.stringify(fields.nutrients)},
        nutrient_count = ${Object.keys(fields.nutrients).length}, updated_at = ${updatedAt}
      WHERE workspace_id = ${workspaceId} AND name = ${name}`;
  },
};
