/** PostgreSQL's statements for ../formula-put.ts. */
import type { FormulaPutStatements } from "../formula-rows.ts";
import type { PgStatements } from "../op.ts";
import { lockOutbox } from "./events.ts";

export const pgFormulaPut: PgStatements<FormulaPutStatements> = {
  lockOutbox,
  createdAt: async (sql, workspaceId, id) => {
    const [existing] = (await sql`SELECT created_at AS "createdAt" FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id}`) as { createdAt: string }[];
    return existing?.createdAt ?? null;
  },
};
