/**
 * Recording an event (the outbox: the event row and its deliveries) as one step of an operation
 * written once, until events are written once too: each dialect's own `recordEvent` (PostgreSQL's
 * takes the outbox lock and pipelines its statements).
 */
import type { NewEvent } from "../domain/events.ts";
import { recordEvent } from "./events.ts";
import { statements } from "./op.ts";
import { recordEvent as pgRecordEvent } from "./pg/events.ts";

/** @example yield* outbox.recordEvent(planUpdatedEvent(actor, plan)) */
export const outbox = statements<{ recordEvent(event: NewEvent): number }>({ recordEvent }, { recordEvent: pgRecordEvent });
