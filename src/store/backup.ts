import { Database } from "bun:sqlite";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { DataFileError, openFailure } from "./db.ts";
import { SCHEMA_VERSION } from "./migrations.ts";

/**
 * Write a consistent copy of the open database to `target` while others keep writing: VACUUM INTO
 * reads one snapshot, so the copy holds every change committed before it began and none half-made.
 * The copy is written beside the target and renamed, so a failed backup never leaves a partial file.
 * @example backupTo(db, "/var/backups/feedbase-2026-11-21.db")
 */
export function backupTo(db: Database, target: string): void {
  // SQLite would only say "unable to open database" and name the temporary file.
  if (!existsSync(dirname(target))) throw new DataFileError(`Cannot write backup ${target}: directory ${dirname(target)} does not exist`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  try {
    db.query("VACUUM INTO ?").run(partial);
    renameSync(partial, target);
  } finally {
    if (existsSync(partial)) rmSync(partial, { force: true });
  }
}

/** `feedbase-<UTC time, ms>.db`: names sort by time, and only names of this form are ever pruned. */
const ROTATED = /^feedbase-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.db$/;

/**
 * The file name of a backup made at `now` in a backup directory (`:` is not safe in every file system).
 * @example rotatedName(new Date("2026-11-23T02:00:00Z")) // "feedbase-2026-11-23T02-00-00.000Z.db"
 */
export function rotatedName(now: Date): string {
  return `feedbase-${now.toISOString().replace(/:/g, "-")}.db`;
}

/**
 * Remove the oldest timestamped backups in `dir` beyond the newest `keep`; other files are never touched.
 * @example pruneBackups("/var/lib/feedbase/backups", 14) // ["feedbase-2026-11-01T02-00-00.000Z.db"]
 */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir).filter((name) => ROTATED.test(name)).sort();
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}

/**
 * Check that `path` is a whole feedbase data file this executable can open: SQLite's integrity check
 * passes and its schema version is known (an older one is migrated when it is opened). Returns the version.
 * @example checkBackup("/var/lib/feedbase/backups/feedbase-2026-11-23T02-00-00.000Z.db") // 7
 */
export function checkBackup(path: string): number {
  if (!existsSync(path)) throw new DataFileError(`No backup at ${path}`);
  let db: Database;
  try {
    db = new Database(path, { readonly: true, strict: true });
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    const problems = (db.query("PRAGMA integrity_check").all() as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (problems.join() !== "ok") throw new DataFileError(`${path} failed SQLite's integrity check: ${problems.slice(0, 3).join("; ")}`);
    const schema = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    if (schema === 0) throw new DataFileError(`${path} is not a feedbase data file (it has no schema version)`);
    if (schema > SCHEMA_VERSION) {
      throw new DataFileError(`${path} has schema version ${schema}, newer than this feedbase's ${SCHEMA_VERSION}: use the feedbase that made it`);
    }
    return schema;
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    // A file that is not a database, or one damaged past reading, fails before the check can answer.
    throw new DataFileError(`${path} failed SQLite's integrity check: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
