/** SQLite's statements for src/store/plans.ts. */
import type { SqliteStatements } from "../op.ts";
import type { PlanRow, PlanStatements } from "../plan-rows.ts";

const COLUMNS = `id, name, body, created_at AS createdAt, updated_at AS updatedAt`;

export const sqlitePlans: SqliteStatements<PlanStatements> = {
  planRows: (db, workspaceId) => db.query(`SELECT ${COLUMNS} FROM plans WHERE workspace_id = ? ORDER BY updated_at DESC, id`).all(workspaceId) as PlanRow[],
  planRow: (db, workspaceId, id) => db.query(`SELECT ${COLUMNS} FROM plans WHERE workspace_id = ? AND id = ?`).get(workspaceId, id) as PlanRow | null,
  upsertPlan: (db, workspaceId, id, name, body, createdAt, updatedAt) => {
    db.query(`INSERT INTO plans (workspace_id, id, name, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, body = excluded.body, updated_at = excluded.updated_at`).run(workspaceId, id, name, body, createdAt, updatedAt);
  },
  deletePlan: (db, workspaceId, id) => db.query("DELETE FROM plans WHERE workspace_id = ? AND id = ?").run(workspaceId, id).changes > 0,
};
