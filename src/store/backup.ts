import type { Database } from "bun:sqlite";
import { existsSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { DataFileError } from "./db.ts";

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
