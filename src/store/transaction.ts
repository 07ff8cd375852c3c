import type { Database } from "bun:sqlite";

/**
 * A value that is not a promise: a transaction's work must finish before its COMMIT, and bun:sqlite
 * runs it synchronously, so an async callback would commit before its awaits and write outside the
 * transaction. `transaction` and `WriteQueue.run` refuse one at compile time.
 * @example function run<T>(work: () => NotPromise<T>): T
 */
export type NotPromise<T> = T extends PromiseLike<unknown> ? never : T;

/**
 * The transaction owner of the admin commands (the server's is the write queue): `work` runs in one
 * IMMEDIATE transaction, so it holds the write lock from its first read, and commits or rolls back whole.
 * Store functions open none themselves: they say so with `requireTransaction`.
 * @example const id = transaction(db, () => createKey(db, spec).id)
 */
export function transaction<T>(db: Database, work: () => NotPromise<T>): T {
  return db.transaction(work).immediate() as T;
}

/**
 * Refuse to run a multi-statement store write outside its owner's transaction, where a failure half
 * way would leave half a change (and, in the server, one that skipped the group commit).
 * @example export function updatePrice(db, ...) { requireTransaction(db, "updatePrice"); ... }
 */
export function requireTransaction(db: Database, what: string): void {
  if (!db.inTransaction) throw new Error(`${what} must run inside a transaction (WriteQueue.run in the server, transaction() in a command)`);
}
