import type { Database } from "bun:sqlite";

/**
 * A read the server depends on: the schema is readable and the default workspace answers.
 * @example databaseAnswers(db) // true
 */
export function databaseAnswers(db: Database): boolean {
  return db.query("SELECT 1 AS one FROM workspaces LIMIT 1").get() !== null;
}

/**
 * The readiness write: a row bigger than a page needs fresh pages (from the free list, else by growing
 * the file), then is removed again. Run through the write queue, it commits like any API write, so a
 * full disk fails it with SQLITE_FULL.
 * @example await writes.run(() => probeWrite(db))
 */
export function probeWrite(db: Database): void {
  db.run("INSERT INTO readiness_probe (filler) VALUES (zeroblob(8192))");
  db.run("DELETE FROM readiness_probe");
}
