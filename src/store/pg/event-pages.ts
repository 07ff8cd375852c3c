/** PostgreSQL's statements for ../event-pages.ts. */
import type { EventPageStatements, EventRow } from "../event-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgEventPages: PgStatements<EventPageStatements> = {
  eventsAfter: async (sql, workspaceId, after, count) =>
    (await sql`SELECT number AS id, type, created_at AS "createdAt", payload FROM events
      WHERE workspace_id = ${workspaceId} AND number > ${after} ORDER BY number LIMIT ${count}`) as EventRow[],
};
