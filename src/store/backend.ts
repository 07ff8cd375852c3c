/**
 * The seam between request handlers and storage. Handlers see `Reads` and `Writes` only: named
 * operations without a connection, so a handler cannot write around the group commit (and leave
 * cached bodies stale), and a second backend (PostgreSQL, async) can implement the same two
 * interfaces without a handler changing. Reads return `T | Promise<T>`: SQLite answers synchronously,
 * and handlers `await` them inside cached builds, which run only on a cache miss, so a cached GET
 * stays synchronous from `fetch` to the Response.
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { costChanges, formulaCost, formulaFootprint } from "./costs.ts";
import { eventsAfter } from "./event-pages.ts";
import { listFormulaDetails, listFormulas, requireFormula, requireFormulaId } from "./formulas.ts";
import { createIngredient, updatePrice } from "./ingredient-changes.ts";
import { findIngredient, findIngredients, listIngredientDetails, listIngredients, listPools, listPrices, requireIngredient } from "./ingredients.ts";
import { priceHistory, pricesAt } from "./price-history.ts";
import { listNutrients, putNutrient, requireNutrient } from "./nutrients.ts";
import { putFormula } from "./formula-put.ts";
import { listPlans, putPlan, requirePlan } from "./plans.ts";
import { listKeys } from "./keys.ts";
import { addAnalysis, listAnalyses, variability } from "./analyses.ts";
import type { WriteQueue } from "./write-queue.ts";
import type { PgWriteBatch } from "./pg/write-batch.ts";
import { operations } from "./bind.ts";

/** The reads handlers may make: store functions whose first parameter is the connection, on both backends. Add a read here. */
const READS = {
  listIngredients,
  listPools,
  listPrices,
  requireIngredient,
  findIngredient,
  findIngredients,
  listIngredientDetails,
  listFormulas,
  requireFormula,
  requireFormulaId,
  formulaFootprint,
  listFormulaDetails,
  priceHistory,
  pricesAt,
  formulaCost,
  costChanges,
  eventsAfter,
  listNutrients,
  requireNutrient,
  listPlans,
  requirePlan,
  listKeys,
  listAnalyses,
  variability,
};
/** The writes handlers may make: each runs as one write of the group commit. Add a write here (both backends). */
const WRITES = { createIngredient, updatePrice, putPlan, putNutrient, putFormula, addAnalysis };

type Awaitable<T> = T | Promise<T>;
type Rest<F> = F extends (db: Database, ...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? R : never;

/** @example const detail = await ctx.read.requireIngredient(workspaceId, "Maize") */
export type Reads = { [K in keyof typeof READS]: (...args: Rest<(typeof READS)[K]>) => Awaitable<Result<(typeof READS)[K]>> };
/** @example const detail = await ctx.write.updatePrice(actor, "Maize", { price: 219 }) // resolves once durable */
export type Writes = { [K in keyof typeof WRITES]: (...args: Rest<(typeof WRITES)[K]>) => Promise<Result<(typeof WRITES)[K]>> };

/** What a storage backend gives the HTTP layer. */
export interface Backend {
  read: Reads;
  /** Writes answered before the server reads the connection's next request (it may be pipelined). */
  write: Writes;
  /** The same writes, allowed to wait and share a commit: for a connection that waits for its answers (src/http/pipelining.ts). */
  batchedWrite: Writes;
}

/**
 * The SQLite backend: reads on the service's connection, writes through its group commit, each
 * registering `afterWrite` (the data generation moves, the delivery loop wakes) to run after its commit.
 * @example const backend = sqliteBackend(db, writes, [() => version.touch(), () => deliveries.wake()])
 */
export function sqliteBackend(db: Database, queue: WriteQueue, afterWrite: readonly (() => void)[]): Backend {
  const read = operations<Database>(READS, (fn) => (...args) => fn(db, ...args));
  const writes = (schedule: WriteQueue["run"]): Writes =>
    operations<Database>(WRITES, (fn) => (...args) =>
      schedule((tx) => {
        for (const effect of afterWrite) tx.afterCommit(effect);
        return fn(db, ...args) as never;
      }),
    ) as Writes;
  return { read: read as Reads, write: writes((work) => queue.run(work)), batchedWrite: writes((work) => queue.runLater(work)) };
}

/**
 * The PostgreSQL backend: the same tables, async. A write (the change, its history entry, its event and
 * the event's deliveries: the outbox) runs in a savepoint of a batch transaction (src/store/pg/write-batch.ts),
 * which ends with a notification on the channel every instance listens to, so their cached bodies and
 * keys go (src/store/pg/data-version.ts). docs/decisions.md#serving-from-postgresql.
 * @example const backend = pgBackend(sql, new PgWriteBatch(sql, { afterCommit: [() => version.touch()], onEffectError, onCommit }))
 */
export function pgBackend(sql: SQL, batch: PgWriteBatch): Backend {
  const read = operations<SQL>(READS, (fn) => (...args) => fn(sql, ...args));
  const write = operations<SQL>(WRITES, (fn) => (...args) => batch.run((tx) => fn(tx, ...args) as Promise<unknown>));
  // Both wait for a commit on the database: answering before Bun reads a pipelined request is not possible here.
  return { read: read as Reads, write: write as Writes, batchedWrite: write as Writes };
}
