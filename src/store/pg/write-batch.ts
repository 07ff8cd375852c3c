/**
 * Group commit on PostgreSQL: the server's one owner of API write transactions
 * (docs/decisions.md#serving-from-postgresql). Every write that records an event holds the outbox lock
 * until its transaction ends, so writes of one database commit one after another however many
 * connections they use; each paying its own commit made PUT /v1/prices a queue on that lock. Here one
 * transaction at a time is in flight per process, and the writes that arrive while it commits go
 * together in the next: one commit, one notification and one run of the effects for up to
 * {@link MAX_BATCH} writes.
 */
import type { SQL } from "bun";
import { holdOutbox } from "./events.ts";
import { pipelined } from "./pipelined.ts";
import { notifyChange } from "./transaction.ts";

/** At most this many writes share one transaction, so one batch cannot hold the outbox lock for long. */
export const MAX_BATCH = 256;

interface Pending {
  work: (tx: SQL) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One write in a savepoint of its own. SAVEPOINT and RELEASE are sent without waiting for their answers
 * (they travel with the write's first statement and the next write's), saving two round trips a write;
 * a RELEASE that failed is found when `released` is awaited before COMMIT.
 */
async function runInSavepoint(tx: SQL, op: Pending, released: Promise<unknown>[]): Promise<Outcome> {
  const opened = tx`SAVEPOINT write`.execute();
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: (await pipelined(opened, op.work(tx)))[1] };
  } catch (error) {
    // If this fails too the transaction is lost: the error ends the batch, and every write of it rejects.
    await tx`ROLLBACK TO SAVEPOINT write`;
    outcome = { ok: false, error };
  }
  const release = tx`RELEASE SAVEPOINT write`.execute();
  release.catch(() => {});
  released.push(release);
  return outcome;
}

export interface WriteBatchHooks {
  /** Run once per committed batch in which a write succeeded, after COMMIT and before any promise settles. */
  afterCommit: readonly (() => void)[];
  /** Told when an effect throws; the batch's promises settle all the same. */
  onEffectError: (error: unknown) => void;
  /** Told how many writes shared each commit (for metrics). */
  onCommit: (writes: number) => void;
}

/**
 * Each write runs in a SAVEPOINT of the batch's transaction, so one that fails (a 404, a 409, a
 * constraint) rolls back only itself and its caller gets its own error while the others commit. If the
 * transaction cannot commit (COMMIT refused, the connection lost), every write of the batch rejects with
 * that error: nothing is acknowledged that is not stored. A promise settles only after COMMIT.
 * @example
 * const batch = new PgWriteBatch(sql, { afterCommit: [() => version.touch()], onEffectError: log, onCommit: (n) => metrics.commit(n) });
 * const detail = await batch.run((tx) => updatePrice(tx, actor, "Maize", { price: 219 }));
 */
export class PgWriteBatch {
  private queue: Pending[] = [];
  /** The loop committing batches, while there is one. */
  private draining: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly sql: SQL,
    private readonly hooks: WriteBatchHooks,
  ) {}

  /** Queue a write; it starts with the next batch and resolves (or rejects) once that batch has ended. */
  run<T>(work: (tx: SQL) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the write batch is closed (shutting down)"));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // Idle: wait for the end of the event-loop turn, so the writes of requests read together start together.
      if (this.draining === null) this.draining = new Promise<void>((started) => setImmediate(started)).then(() => this.drain());
    });
  }

  /** How many writes wait for the batch in flight to end (a metrics gauge). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Refuse new writes and wait until the queued ones have been committed (or refused). */
  async close(): Promise<void> {
    this.closed = true;
    await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_BATCH));
    this.draining = null;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.sql.begin(async (tx) => {
        // Every API write takes the outbox lock; taken here, outside the savepoints, it is held to COMMIT and theirs cost nothing.
        await holdOutbox(tx);
        const released: Promise<unknown>[] = [];
        for (const op of batch) outcomes.push(await runInSavepoint(tx, op, released));
        await Promise.all(released);
        // Also the check that the transaction is still whole: on an aborted one this statement fails.
        if (outcomes.some((o) => o.ok)) await notifyChange(tx);
      });
    } catch (error) {
      for (const op of batch) op.reject(error);
      return;
    }
    if (outcomes.some((o) => o.ok)) {
      for (const effect of this.hooks.afterCommit) {
        try {
          effect();
        } catch (error) {
          this.hooks.onEffectError(error);
        }
      }
    }
    this.hooks.onCommit(batch.length);
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }
}
