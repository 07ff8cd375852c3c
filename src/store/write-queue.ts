import type { Database } from "bun:sqlite";
import type { NotPromise } from "./transaction.ts";

/** What a write can do beside its database work: say what must happen once its change is durable. */
export interface WriteTx {
  /**
   * Run `effect` after the COMMIT that makes this write durable, before any promise of the batch settles
   * (so an acknowledged write is never followed by a stale read). Registered twice in one batch, it runs
   * once; a write that fails drops its effects.
   */
  afterCommit(effect: () => void): void;
}

interface Pending {
  work: (tx: WriteTx) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** At most this many writes share one commit, so one slow batch cannot hold the write lock for long. */
const MAX_BATCH = 256;

/**
 * Group commit, and the server's one transaction owner. With `synchronous=FULL` every commit waits for
 * an fsync, and bun:sqlite blocks the one JavaScript thread while it does. Queued writes therefore share
 * one IMMEDIATE transaction: each runs in its own savepoint (a failing write rolls back only itself),
 * and every promise settles only after the shared COMMIT is durable — nothing is acknowledged before it.
 *
 * When: `run` commits before the current microtasks end. Bun 1.3 closes a connection when it parses a
 * pipelined request while the answer ahead of it is still pending, and it parses it right after the
 * current request's microtasks (src/http/pipelining.ts). `runLater` waits for the next such commit or
 * the end of the event-loop turn, so the writes of many connections share one fsync: for delivery
 * outcomes, and for requests on connections known to wait for their answers.
 * @example const detail = await writes.run((tx) => { tx.afterCommit(dataChanged); return updatePrice(db, actor, "Maize", { price: 219 }) })
 */
export class WriteQueue {
  private queue: Pending[] = [];
  private soon = false;
  private later = false;
  private closed = false;

  constructor(
    private readonly db: Database,
    /** Told when an after-commit effect throws; the batch's promises settle all the same. */
    private readonly onEffectError: (error: unknown) => void = () => {},
    /** Told how many writes shared each commit (for metrics). */
    private readonly onCommit: (writes: number) => void = () => {},
  ) {}

  /**
   * Queue a write. `work` must be synchronous database work only: it runs inside the shared transaction,
   * and an async one is refused at compile time (`NotPromise`).
   */
  run<T>(work: (tx: WriteTx) => NotPromise<T>): Promise<T> {
    return this.enqueue(work, true);
  }

  /**
   * Queue a write that may wait: it commits with the next `run`, at the latest at the end of the
   * event-loop turn. @example await writes.runLater(() => finishAttempt(db, outcome))
   */
  runLater<T>(work: (tx: WriteTx) => NotPromise<T>): Promise<T> {
    return this.enqueue(work, false);
  }

  /** Commit what is queued now and refuse later writes, so the database can be closed. */
  close(): void {
    this.flushAll();
    this.closed = true;
  }

  private enqueue<T>(work: (tx: WriteTx) => NotPromise<T>, soon: boolean): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the write queue is closed (shutting down)"));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (soon && !this.soon) {
        this.soon = true;
        queueMicrotask(() => {
          this.soon = false;
          this.flushAll();
        });
      } else if (!soon && !this.later) {
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
    const effects = new Set<() => void>();
    try {
      this.db
        .transaction(() => {
          for (const op of batch) {
            const registered: (() => void)[] = [];
            try {
              outcomes.push({ ok: true, value: this.db.transaction(() => op.work({ afterCommit: (effect) => registered.push(effect) }))() });
              for (const effect of registered) effects.add(effect);
            } catch (error) {
              // SQLite ends the whole transaction on some errors (SQLITE_FULL, an I/O error): what ran before
              // is gone too, and what follows must not start a transaction of its own. The batch fails whole.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, value: error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // Nothing in the batch happened, and nobody is told otherwise.
      for (const op of batch) op.reject(error);
      return;
    }
    for (const effect of effects) {
      try {
        effect();
      } catch (error) {
        this.onEffectError(error);
      }
    }
    this.onCommit(batch.length);
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.value);
    });
  }
}
