/** SQLite's statements for src/store/event-pages.ts. */
import type { EventPageStatements, EventRow } from "../event-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteEventPages: SqliteStatements<EventPageStatements> = {
  eventsAfter: (db, workspaceId, after, count) =>
    db.query("SELECT number AS id, type, created_at AS createdAt, payload FROM events WHERE workspace_id = ? AND number > ? ORDER BY number LIMIT ?").all(workspaceId, after, count) as EventRow[],
};
