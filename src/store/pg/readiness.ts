/** PostgreSQL's twins of ../readiness.ts, and how it says its disk is full. */
import type { SQL } from "bun";

/** SQLSTATE disk_full. */
const DISK_FULL = "53100";

/**
 * Whether PostgreSQL refused for lack of space: the same 503 `Storage full` as SQLITE_FULL.
 * @example if (isPgStorageFull(error)) throw new HttpError(503, "Storage full")
 */
export function isPgStorageFull(error: unknown): boolean {
  return (error as { errno?: unknown } | null)?.errno === DISK_FULL;
}

/**
 * The schema is readable and the default workspace answers; the tables every request reads are not
 * held by another session's exclusive lock (a `LOCK TABLE` makes this wait, and miss its deadline).
 * @example await databaseAnswers(sql) // true
 */
export async function databaseAnswers(sql: SQL): Promise<boolean> {
  const [row] = (await sql`
    SELECT EXISTS (SELECT 1 FROM workspaces) AS workspaces, EXISTS (SELECT 1 FROM api_keys) AS keys,
           EXISTS (SELECT 1 FROM ingredients) AS ingredients, EXISTS (SELECT 1 FROM formulas) AS formulas,
           EXISTS (SELECT 1 FROM events) AS events`) as { workspaces: boolean }[];
  return row?.workspaces === true;
}

/**
 * A row bigger than a page inserted and removed in one transaction: it commits (WAL flush) like any
 * write, and fails with 53100 when the disk is full. It changes nothing, so it notifies nobody.
 * @example await probeWrite(sql)
 */
export async function probeWrite(sql: SQL): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`INSERT INTO readiness_probe (filler) VALUES (decode(repeat('00', 8192), 'hex'))`;
    await tx`DELETE FROM readiness_probe`;
  });
}
