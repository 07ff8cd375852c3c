/** PostgreSQL's statements for ../plans.ts. */
import type { PgStatements } from "../op.ts";
import type { PlanRow, PlanStatements } from "../plan-rows.ts";
import { unmatchable } from "./text.ts";

export const pgPlans: PgStatements<PlanStatements> = {
  planRows: async (sql, workspaceId) =>
    (await sql`SELECT id, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM plans WHERE workspace_id = ${workspaceId} ORDER BY updated_at DESC, id`) as PlanRow[],
  planRow: async (sql, workspaceId, id) => {
    if (unmatchable(id)) return null;
    const [row] = (await sql`SELECT id, name, body, created_at AS "createdAt", updated_at AS "updatedAt" FROM plans WHERE workspace_id = ${workspaceId} AND id = ${id}`) as PlanRow[];
    return row ?? null;
  },
  upsertPlan: async (sql, workspaceId, id, name, body, createdAt, updatedAt) => {
    await sql`INSERT INTO plans (workspace_id, id, name, body, created_at, updated_at) VALUES (${workspaceId}, ${id}, ${name}, ${body}, ${createdAt}, ${updatedAt})
      ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, body = excluded.body, updated_at = excluded.updated_at`;
  },
  deletePlan: async (sql, workspaceId, id) => (await sql`DELETE FROM plans WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`).length > 0,
};
