/** PostgreSQL's readiness statements (../readiness.ts), and how it says its disk is full. */
import type { PgStatements } from "../op.ts";
import type { ReadinessStatements } from "../readiness-rows.ts";

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
 * PostgreSQL's readiness statements for ../readiness.ts. `answers`: the tables every request reads are
 * also not held by another session's exclusive lock (a `LOCK TABLE` makes this wait, and miss its
 * deadline). `probeWrite`: inserted and removed in one transaction of its own, it commits (WAL flush)
 * like any write and fails with 53100 when the disk is full; it changes nothing, so it notifies nobody.
 */
export const pgReadiness: PgStatements<ReadinessStatements> = {
  answers: async (sql) => {
    const [row] = (await sql`
      SELECT EXISTS (SELECT 1 FROM workspaces) AS workspaces, EXISTS (SELECT 1 FROM api_keys) AS keys,
             EXISTS (SELECT 1 FROM ingredients) AS ingredients, EXISTS (SELECT 1 FROM formulas) AS formulas,
             EXISTS (SELECT 1 FROM events) AS events`) as { workspaces: boolean }[];
    return row?.workspaces === true;
  },
  probeWrite: async (sql) => {
    await sql.begin(async (tx) => {
      await tx`INSERT INTO readiness_probe (filler) VALUES (decode(repeat('00', 8192), 'hex'))`;
      await tx`DELETE FROM readiness_probe`;
    });
  },
};
