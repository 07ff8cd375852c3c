/** PostgreSQL's statements for ../event-pages.ts. */
import type { EventPageStatements, EventRow } from "../event-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgEventPages: PgStatements<EventPageStatements> = {
  eventsAfter: async (sql, workspaceId, after, count) =>
    (await sql`SELECT id, type, created_at AS "createdAt", payload FROM events
      WHERE workspace_id = ${workspaceId} AND id > ${after} ORDER BY id LIMIT ${count}`) as EventRow[],
};
