/** What both backends' event pages share: the row GET /v1/events lists and the statement that reads a page. */
import type { EventType } from "../domain/events.ts";

/** One event as GET /v1/events lists it: the stored payload text, not parsed. */
export interface EventRow {
  id: number;
  type: EventType;
  createdAt: string;
  payload: string;
}

/** The statements of src/store/event-pages.ts, each dialect's in src/store/sqlite/event-pages.ts and src/store/pg/event-pages.ts. */
export interface EventPageStatements {
  /** Up to `count` events of the workspace after the cursor, oldest first. */
  eventsAfter(workspaceId: number, after: number, count: number): EventRow[];
}
