/**
 * Store operations written once (docs/decisions.md#store-operations-written-once). An operation is a
 * generator that yields named statements; each dialect gives only its statements (SQLite's run
 * synchronously on bun:sqlite, PostgreSQL's return Bun.sql's promise). `operation()` makes the one
 * function callers use: on a bun:sqlite `Database` it runs to the end without making a promise (so
 * it still fits `transaction()`, `WriteQueue.run` and a cached read), on a Bun.sql connection or
 * transaction it awaits each statement. A failed statement is thrown back into the generator at its
 * yield, so try/catch/finally mean the same on both.
 */
import { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { writeTransaction } from "./pg/transaction.ts";
import { requireTransaction, transaction } from "./transaction.ts";

/** One statement to run: which dialect tables hold it, its name there and its arguments. */
export class Step<T> {
  constructor(
    readonly tables: DialectTables,
    readonly name: string,
    readonly args: readonly unknown[],
  ) {}

  /** `yield* step` hands the step to the runner and evaluates to its result. */
  *[Symbol.iterator](): Generator<Step<T>, T, unknown> {
    return (yield this) as T;
  }
}

/**
 * Statements that do not depend on each other, as one step: SQLite runs them one after another;
 * PostgreSQL issues them all before awaiting any (one round trip), waits until every one has answered
 * and then hands back their results in order or throws the first failure, so nothing of a failed write
 * still runs behind the ROLLBACK TO SAVEPOINT that follows. A part may be a whole operation (its
 * `.steps(...)`): on PostgreSQL its first statement goes in the same round trip, the rest as it goes.
 */
export class All<T extends unknown[]> {
  constructor(readonly steps: readonly (Step<unknown> | Op<unknown>)[]) {}

  *[Symbol.iterator](): Generator<All<T>, T, unknown> {
    return (yield this) as T;
  }
}

/** @example const [defined, used] = yield* all(q.defined(ws), q.used(ws)) */
export function all<T extends unknown[]>(...steps: { [K in keyof T]: Step<T[K]> | Op<T[K]> }): All<T> {
  return new All<T>(steps as readonly (Step<unknown> | Op<unknown>)[]);
}

/**
 * An operation run in one transaction of its own, as one step: what a whole import or the demo does
 * after checking its file outside any (the write lock is then held for the writes alone). SQLite runs
 * it in `transaction()` (IMMEDIATE), PostgreSQL in `writeTransaction` (ending with the notification
 * running servers listen for); a failure rolls it all back and is thrown into the operation at its yield.
 */
export class OwnTransaction<T> {
  constructor(readonly op: Op<T>) {}

  *[Symbol.iterator](): Generator<OwnTransaction<T>, T, unknown> {
    return (yield this) as T;
  }
}

/** @example const added = yield* ownTransaction(writeIngredientImport.steps(ws, rows, options)) */
export const ownTransaction = <T>(op: Op<T>): OwnTransaction<T> => new OwnTransaction(op);

/** An operation in progress: it yields steps and returns its answer. */
export type Op<T> = Generator<Step<unknown> | All<unknown[]> | OwnTransaction<unknown>, T, unknown>;

type Fn = (...args: never[]) => unknown;
/** A family's statements as SQLite gives them: the connection first, the result at once. */
export type SqliteStatements<S extends Record<keyof S, Fn>> = { [K in keyof S]: (db: Database, ...args: Parameters<S[K]>) => ReturnType<S[K]> };
/** The same statements as PostgreSQL gives them: a connection or transaction first, the result promised. */
export type PgStatements<S extends Record<keyof S, Fn>> = { [K in keyof S]: (sql: SQL, ...args: Parameters<S[K]>) => Promise<ReturnType<S[K]>> };
/** What an operation yields steps of: one table of statements per dialect, with the same names. */
export type Statements<S extends Record<keyof S, Fn>> = { [K in keyof S]: (...args: Parameters<S[K]>) => Step<ReturnType<S[K]>> };

interface DialectTables {
  sqlite: Record<string, (db: Database, ...args: unknown[]) => unknown>;
  pg: Record<string, (sql: SQL, ...args: unknown[]) => Promise<unknown>>;
}

/**
 * The steps of one family of statements, from its two dialect tables (a name missing from either does
 * not compile).
 * @example const q = statements<KeyStatements>(sqliteKeys, pgKeys); yield* q.insertKey(row)
 */
export function statements<S extends Record<keyof S, Fn>>(sqlite: SqliteStatements<S>, pg: PgStatements<S>): Statements<S> {
  const tables = { sqlite, pg } as unknown as DialectTables;
  const steps: Record<string, (...args: unknown[]) => Step<unknown>> = {};
  for (const name of Object.keys(sqlite)) steps[name] = (...args) => new Step(tables, name, args);
  return steps as Statements<S>;
}

const sqliteStatement = (db: Database, step: Step<unknown>) => step.tables.sqlite[step.name]!(db, ...step.args);
const pgStatement = (sql: SQL, step: Step<unknown>) => step.tables.pg[step.name]!(sql, ...step.args);

/** Every result in order once all have answered, or the first failure: never settles while one still runs. */
async function settled(work: Promise<unknown>[]): Promise<unknown[]> {
  const outcomes = await Promise.allSettled(work);
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
}

/** Run an operation on SQLite: synchronous, no promise made. */
export function runSqlite<T>(db: Database, op: Op<T>): T {
  let next = op.next();
  while (!next.done) {
    const step = next.value;
    let result: unknown;
    try {
      if (step instanceof OwnTransaction) result = transaction(db, () => runSqlite(db, step.op));
      else result = step instanceof All ? step.steps.map((one) => (one instanceof Step ? sqliteStatement(db, one) : runSqlite(db, one))) : sqliteStatement(db, step);
    } catch (error) {
      next = op.throw(error);
      continue;
    }
    next = op.next(result);
  }
  return next.value;
}

/** Run an operation on PostgreSQL: each statement awaited before the operation goes on. */
export async function runPg<T>(sql: SQL, op: Op<T>): Promise<T> {
  let next = op.next();
  while (!next.done) {
    const step = next.value;
    let result: unknown;
    try {
      if (step instanceof OwnTransaction) result = await writeTransaction(sql, (tx) => runPg(tx, step.op));
      else result = step instanceof All ? await settled(step.steps.map((one) => (one instanceof Step ? pgStatement(sql, one) : runPg(sql, one)))) : await pgStatement(sql, step);
    } catch (error) {
      next = op.throw(error);
      continue;
    }
    next = op.next(result);
  }
  return next.value;
}

/** An operation as callers call it: connection first, on either backend; `steps` for use inside another operation. */
export interface Operation<A extends unknown[], T> {
  (sql: SQL, ...args: A): Promise<T>;
  (db: Database, ...args: A): T;
  steps: (...args: A) => Op<T>;
}

/**
 * The one function of an operation written once.
 * @example export const listKeys = operation(function* (workspaceId?: number) { return (yield* q.keyListing(workspaceId ?? null)).map(keyListing) })
 */
export function operation<A extends unknown[], T>(steps: (...args: A) => Op<T>): Operation<A, T> {
  const run = (conn: Database | SQL, ...args: A) => (conn instanceof Database ? runSqlite(conn, steps(...args)) : runPg(conn, steps(...args)));
  return Object.assign(run, { steps }) as Operation<A, T>;
}

/**
 * A multi-statement write outside its owner's transaction is refused on SQLite (a failure half way
 * would leave half a change). On PostgreSQL every write's owner opens one, and Bun.sql cannot tell a
 * transaction from the pool: nothing to check.
 * @example yield* tx.requireTransaction("removeWebhook")
 */
export const tx = statements<{ requireTransaction(what: string): void }>({ requireTransaction }, { requireTransaction: async () => {} });
