/** SQLite's statements for src/store/events.ts. */
import { OPT_IN_EVENTS } from "../../domain/events.ts";
import { newDeliveryId } from "../../domain/ids.ts";
import type { EventStatements, StoredEvent } from "../event-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteEvents: SqliteStatements<EventStatements> = {
  lockOutbox: () => {},
  insertEvent: (db, event) =>
    Number(
      db
        .query(
          `INSERT INTO events (workspace_id, number, type, ingredient, payload, key_id, created_at)
           VALUES (?1, (SELECT coalesce(max(number), 0) + 1 FROM events WHERE workspace_id = ?1), ?2, ?3, ?4, ?5, ?6)`,
        )
        .run(event.workspaceId, event.type, event.ingredient, JSON.stringify(event.payload), event.keyId, event.now).lastInsertRowid,
    ),
  // Sorted here rather than by ORDER BY id: SQLite opens a sorter for that even when no webhook matches,
  // about 6 µs of every price change (webhooks_by_workspace holds rowids, not ids). Ids are ASCII, so
  // sort()'s order is SQLite's BINARY order.
  subscribers: (db, workspaceId, type) =>
    (
      db
        .query(
          `SELECT id FROM webhooks
           WHERE workspace_id = ?1 AND enabled = 1 AND ((events IS NULL AND ?3 = 0) OR instr(',' || events || ',', ',' || ?2 || ',') > 0)`,
        )
        .all(workspaceId, type, OPT_IN_EVENTS.includes(type) ? 1 : 0) as { id: string }[]
    )
      .map((row) => row.id)
      .sort(),
  insertDeliveries: (db, event, webhooks) => {
    const insert = db.query(
      `INSERT INTO deliveries (id, webhook_id, event_id, ingredient, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    );
    const dueAt = Date.parse(event.now);
    for (const id of webhooks) insert.run(newDeliveryId(), id, event.id, event.ingredient, dueAt, event.now, event.now);
  },
  storedEvents: (db, workspaceId) =>
    db
      .query(
        `SELECT number AS id, type, ingredient, payload, key_id AS keyId, created_at AS createdAt
         FROM events WHERE workspace_id = ? ORDER BY number`,
      )
      .all(workspaceId) as StoredEvent[],
};
