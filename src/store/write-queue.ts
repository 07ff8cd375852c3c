import type { Database } from "bun:sqlite";

interface Pending {
  work: () => unknown;
  affectsReads: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** At most this many writes share one commit, so one slow batch cannot hold the write lock for long. */
const MAX_BATCH = 256;

/**
 * Group commit. With `synchronous=FULL` every commit waits for an fsync, and bun:sqlite blocks the one
 * JavaScript thread while it does. Queued writes share one IMMEDIATE transaction: each runs in its own
 * savepoint (a failing write rolls back only itself), and every promise settles only after the shared
 * COMMIT is durable — nothing is acknowledged before it.
 *
 * When: `run` commits before the current microtasks end. Bun 1.3 closes a connection when it parses a
 * pipelined request while the answer ahead of it is still pending, and it parses it right after the
 * current request's microtasks (src/http/pipelining.ts). `runLater` waits for the next such commit or
 * the end of the event-loop turn, so the writes of many connections share one fsync: for delivery
 * outcomes, and for requests on connections known to wait for their answers.
 * @example const detail = await writes.run(() => updatePrice(db, actor, "Maize", { price: 219 }))
 */
export class WriteQueue {
  private queue: Pending[] = [];
  private soon = false;
  private later = false;
  private closed = false;

  constructor(
    private readonly db: Database,
    /**
     * Called after each commit (the delivery loop is woken); `affectsReads` is false when every write in
     * it said it changes nothing a reader is served, so cached bodies stay valid.
     */
    private readonly afterCommit: (affectsReads: boolean) => void = () => {},
  ) {}

  /**
   * Queue a write; it must only touch the database (no awaits), as it runs inside the shared transaction.
   * Pass `affectsReads: false` for bookkeeping no API read shows (webhook delivery outcomes).
   */
  run<T>(work: () => T, affectsReads = true): Promise<T> {
    return this.enqueue(work, affectsReads, true);
  }

  /**
   * Queue a write that may wait: it commits with the next `run`, at the latest at the end of the
   * event-loop turn. @example await writes.runLater(() => finishAttempt(db, outcome), false)
   */
  runLater<T>(work: () => T, affectsReads = true): Promise<T> {
    return this.enqueue(work, affectsReads, false);
  }

  /** Commit what is queued now and refuse later writes, so the database can be closed. */
  close(): void {
    this.flushAll();
    this.closed = true;
  }

  private enqueue<T>(work: () => T, affectsReads: boolean, answered: boolean): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the write queue is closed (shutting down)"));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, affectsReads, resolve: resolve as (v: unknown) => void, reject });
      if (answered && !this.soon) {
        this.soon = true;
        queueMicrotask(() => {
          this.soon = false;
          this.flushAll();
        });
      } else if (!answered && !this.later) {
        this.later = true;
        setImmediate(() => {
          this.later = false;
          this.flushAll();
        });
      }
    });
  }

  private flushAll(): void {
    while (this.queue.length > 0) this.flush();
  }

  private flush(): void {
    const batch = this.queue.splice(0, MAX_BATCH);
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.db
        .transaction(() => {
          for (const op of batch) {
            try {
              outcomes.push({ ok: true, value: this.db.transaction(op.work)() });
            } catch (error) {
              // SQLite ends the whole transaction on some errors (SQLITE_FULL, for one): what ran before is
              // gone too, and what follows must not run outside it. The batch fails as a whole.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, value: error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The commit itself failed: nothing in the batch happened, and nobody is told otherwise.
      for (const op of batch) op.reject(error);
      return;
    }
    this.afterCommit(batch.some((op) => op.affectsReads));
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.value);
    });
  }
}
