/**
 * What the delivery loop asks of the database, on either backend. SQLite: the operations of
 * src/store/deliveries.ts as they are, outcomes through the server's group commit; nothing is claimed,
 * the one process knows what it has in flight. PostgreSQL: ./pg-delivery-store.ts.
 */
import type { Database } from "bun:sqlite";
import { finishAttempt, nextDueAfter, webhooksWithDueDeliveries, type AttemptOutcome, type DueDelivery, type WebhookDisable } from "../store/deliveries.ts";
import { pruneDelivered } from "../store/delivery-admin.ts";
import { dueDeliveries } from "../store/sqlite/deliveries.ts";
import type { WriteQueue } from "../store/write-queue.ts";

type Awaitable<T> = T | Promise<T>;

export interface DeliveryStore {
  /** Enabled webhooks with deliveries due at `nowMs`. */
  webhooksWithDue(nowMs: number): Awaitable<string[]>;
  /**
   * Up to `free` more due deliveries of a webhook that has `busy` in flight here, in the order they may
   * go; the loop skips any it already has in flight.
   */
  take(webhookId: string, nowMs: number, free: number, busy: number): Awaitable<DueDelivery[]>;
  nextDueAfter(nowMs: number): Awaitable<number | null>;
  /** Delete delivered deliveries last touched before `before` (ISO); how many. */
  prune(before: string): Awaitable<number>;
  /** Write an outcome (and a 410's disable); `committed` runs once it is durable. False when the delivery changed meanwhile. */
  finish(outcome: AttemptOutcome, disable: WebhookDisable | null, committed: () => void): Promise<boolean>;
  /** At a clean stop: what this process holds and did not finish may go elsewhere at once. */
  release(): Promise<void>;
  /** Give back these deliveries' claims (their outcomes were lost) if this process still holds them; none on SQLite. */
  unclaim?(deliveryIds: readonly string[]): Promise<void>;
}

/**
 * @example startDeliveryLoop({ store: sqliteDeliveryStore(db, writes), logger })
 */
export function sqliteDeliveryStore(db: Database, writes: WriteQueue): DeliveryStore {
  return {
    webhooksWithDue: (nowMs) => webhooksWithDueDeliveries(db, nowMs),
    // The ones in flight are still pending and come back from the query; ask for enough to skip them.
    take: (webhookId, nowMs, free, busy) => dueDeliveries(db, webhookId, nowMs, free + busy),
    nextDueAfter: (nowMs) => nextDueAfter(db, nowMs),
    prune: (before) => pruneDelivered(db, before),
    // Through the shared group commit: with synchronous=FULL each commit is an fsync that blocks the
    // process, so outcomes and API writes of one turn share one. No API read shows deliveries or
    // webhooks, so cached bodies stay valid across these commits.
    finish: (outcome, disable, committed) =>
      writes.runLater((tx) => {
        tx.afterCommit(committed);
        return finishAttempt(db, outcome, disable);
      }),
    release: async () => {},
  };
}
