/** GET /v1/events: a page of a workspace's events, written once over src/store/sqlite/event-pages.ts and src/store/pg/event-pages.ts. */
import type { EventPageStatements } from "./event-rows.ts";
import { operation, statements } from "./op.ts";
import { pgEventPages } from "./pg/event-pages.ts";
import { sqliteEventPages } from "./sqlite/event-pages.ts";

const q = statements<EventPageStatements>(sqliteEventPages, pgEventPages);

/**
 * A page of a workspace's events after the cursor `after`, oldest first, and whether more follow.
 * @example eventsAfter(db, 1, 0, 100) // { events: [{ id: 1, type: "ingredient.added", … }], hasMore: false }
 */
export const eventsAfter = operation(function* (workspaceId: number, after: number, limit: number) {
  const rows = yield* q.eventsAfter(workspaceId, after, limit + 1);
  return { events: rows.slice(0, limit), hasMore: rows.length > limit };
});
