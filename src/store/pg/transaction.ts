import type { SQL } from "bun";

/**
 * One write transaction on PostgreSQL, ending with the notification that tells every running server
 * its cached bodies and keys are stale (LISTEN 'feedbase'): an admin command is seen within a second.
 * Like SQLite's `transaction()`, it is the owner: the store functions inside open none.
 * @example const id = await writeTransaction(sql, (tx) => createKey(tx, spec))
 */
export async function writeTransaction<T>(sql: SQL, work: (tx: SQL) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const result = await work(tx);
    await tx`SELECT pg_notify('feedbase', '')`;
    return [result] as const;
  }))[0] as T;
}
