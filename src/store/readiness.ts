/**
 * What /readyz asks of the database, written once over each dialect's statements (below for SQLite,
 * src/store/pg/readiness.ts for PostgreSQL).
 */
import { operation, statements, type SqliteStatements } from "./op.ts";
import { pgReadiness } from "./pg/readiness.ts";
import type { ReadinessStatements } from "./readiness-rows.ts";

const sqliteReadiness: SqliteStatements<ReadinessStatements> = {
  answers: (db) => db.query("SELECT 1 AS one FROM workspaces LIMIT 1").get() !== null,
  // Fresh pages (from the free list, else by growing the file): run through the write queue, it
  // commits like any API write, so a full disk fails it with SQLITE_FULL.
  probeWrite: (db) => {
    db.run("INSERT INTO readiness_probe (filler) VALUES (zeroblob(8192))");
    db.run("DELETE FROM readiness_probe");
  },
};

const q = statements<ReadinessStatements>(sqliteReadiness, pgReadiness);

/**
 * A read the server depends on: the schema is readable and the default workspace answers.
 * @example databaseAnswers(db) // true
 */
export const databaseAnswers = operation(function* () {
  return yield* q.answers();
});

/**
 * The readiness write. On SQLite run it through the write queue; on PostgreSQL it is its own transaction.
 * @example await writes.run(() => probeWrite(db))
 */
export const probeWrite = operation(function* () {
  yield* q.probeWrite();
});
