/** SQLite's statements for src/store/event-pages.ts. */
import type { EventPageStatements, EventRow } from "../event-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteEventPages: SqliteStatements<EventPageStatements> = {
  eventsAfter: (db, workspaceId, after, count) =>
    db.query("SELECT id, type, created_at AS createdAt, payload FROM events WHERE workspace_id = ? AND id > ? ORDER BY id LIMIT ?").all(workspaceId, after, count) as EventRow[],
};
