/** SQLite's statements for src/store/formula-put.ts. */
import type { FormulaPutStatements } from "../formula-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteFormulaPut: SqliteStatements<FormulaPutStatements> = {
  lockOutbox: () => {},
  createdAt: (db, workspaceId, id) =>
    (db.query("SELECT created_at AS createdAt FROM formulas WHERE workspace_id = ? AND id = ?").get(workspaceId, id) as { createdAt: string } | null)?.createdAt ?? null,
};
