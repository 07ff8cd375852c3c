/** PostgreSQL's statements for src/store/nutrients.ts; `ingredients.nutrients` is JSON text, read as jsonb here. */
import type { NutrientDefinition } from "../../domain/nutrients.ts";
import type { NutrientStatements } from "../nutrient-rules.ts";
import type { PgStatements } from "../op.ts";
import { unmatchable } from "./text.ts";

export const pgNutrients: PgStatements<NutrientStatements> = {
  definitions: async (sql, workspaceId) => (await sql`SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ${workspaceId}`) as NutrientDefinition[],
  usedKeys: async (sql, workspaceId) =>
    ((await sql`SELECT DISTINCT jsonb_object_keys(nutrients::jsonb) AS key FROM ingredients WHERE workspace_id = ${workspaceId}`.values()) as [string][]).map(([key]) => key),
  definition: async (sql, workspaceId, key) => {
    if (unmatchable(key)) return null;
    const [defined] = (await sql`SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ${workspaceId} AND key = ${key}`) as NutrientDefinition[];
    return defined ?? null;
  },
  isUsed: async (sql, workspaceId, key) => !unmatchable(key) && (await sql`SELECT 1 FROM ingredients WHERE workspace_id = ${workspaceId} AND nutrients::jsonb ? ${key} LIMIT 1`).length > 0,
  upsertDefinition: async (sql, workspaceId, key, input) => {
    // xmax = 0 marks a row this statement inserted rather than updated.
    const [row] = (await sql`INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (${workspaceId}, ${key}, ${input.name}, ${input.unit}, ${input.basis})
      ON CONFLICT (workspace_id, key) DO UPDATE SET name = excluded.name, unit = excluded.unit, basis = excluded.basis
      RETURNING (xmax = 0) AS created`) as { created: boolean }[];
    return row!.created;
  },
  insertDefault: async (sql, workspaceId, d) => {
    await sql`INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (${workspaceId}, ${d.key}, ${d.name}, ${d.unit}, ${d.basis}) ON CONFLICT DO NOTHING`;
  },
};
