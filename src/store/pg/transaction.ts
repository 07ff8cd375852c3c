import type { SQL } from "bun";

/**
 * Tell every running server its cached bodies and keys are stale (they LISTEN on 'feedbase'): the last
 * statement of every transaction that changes data, so an admin command is seen within a second.
 * @example await notifyChange(tx)
 */
export async function notifyChange(tx: SQL): Promise<void> {
  await tx`SELECT pg_notify('feedbase', '')`;
}

/**
 * One write transaction on PostgreSQL, ending with {@link notifyChange}. Like SQLite's `transaction()`,
 * it is the owner: the store functions inside open none. The server's API writes go through
 * ./write-batch.ts instead, many to a transaction.
 * @example const id = await writeTransaction(sql, (tx) => createKey(tx, spec))
 */
export async function writeTransaction<T>(sql: SQL, work: (tx: SQL) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const result = await work(tx);
    await notifyChange(tx);
    return [result] as const;
  }))[0] as T;
}
