/**
 * The PostgreSQL backend: the same `Reads` and `Writes` as the SQLite one (../backend.ts), async. A
 * write (the change, its history entry, its event and the event's deliveries: the outbox) runs in a
 * savepoint of a batch transaction (./write-batch.ts), which ends with a notification on the channel
 * every instance listens to, so their cached bodies and keys go (./data-version.ts).
 * docs/decisions.md#serving-from-postgresql.
 */
import type { SQL } from "bun";
import type { Backend, Reads, Writes } from "../backend.ts";
import { costChanges, formulaCost, formulaFootprint } from "../costs.ts";
import { eventsAfter } from "../event-pages.ts";
import { listFormulaDetails, listFormulas, requireFormula, requireFormulaId } from "../formulas.ts";
import { createIngredient, updatePrice } from "../ingredient-changes.ts";
import { findIngredient, listIngredientDetails, listIngredients, listPools, listPrices, requireIngredient } from "../ingredients.ts";
import { priceHistory, pricesAt } from "../price-history.ts";
import { listNutrients, putNutrient, requireNutrient } from "../nutrients.ts";
import { putFormula } from "../formula-put.ts";
import { listPlans, putPlan, requirePlan } from "../plans.ts";
import { listKeys } from "../keys.ts";
import { addAnalysis, listAnalyses, variability } from "../analyses.ts";
import type { PgWriteBatch } from "./write-batch.ts";
import { operations } from "../bind.ts";

/** Each name of `T` as a PostgreSQL store function: the connection first, then the same arguments, the same result later. */
type Twins<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (sql: SQL, ...args: A) => Promise<Awaited<R>> : never };

const READS = {
  listIngredients,
  listPools,
  listPrices,
  requireIngredient,
  findIngredient,
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
} satisfies Twins<Reads>;
const WRITES = { createIngredient, updatePrice, putPlan, putNutrient, putFormula, addAnalysis } satisfies Twins<Writes>;

/**
 * Reads on the pool; writes through the group commit, which runs its effects (the data generation
 * moves, the delivery loop wakes) once their batch has committed, before their promises settle.
 * @example const backend = pgBackend(sql, new PgWriteBatch(sql, { afterCommit: [() => version.touch()], onEffectError, onCommit }))
 */
export function pgBackend(sql: SQL, batch: PgWriteBatch): Backend {
  const read = operations<SQL>(READS, (fn) => (...args) => fn(sql, ...args));
  const write = operations<SQL>(WRITES, (fn) => (...args) => batch.run((tx) => fn(tx, ...args) as Promise<unknown>));
  // Both wait for a commit on the database: answering before Bun reads a pipelined request is not possible here.
  return { read: read as Reads, write: write as Writes, batchedWrite: write as Writes };
}
