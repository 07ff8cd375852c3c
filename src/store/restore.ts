import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { checkBackup } from "./backup.ts";
import { DataFileError, openFailure } from "./db.ts";
import { processesHolding } from "./file-holders.ts";

export interface Restored {
  /** The backup's schema version (an older one is migrated when serve opens the file). */
  schema: number;
  /** Where the replaced data file was kept (with its -wal beside it), or null if there was none. */
  previous: string | null;
}

/**
 * Put a backup in place of the data file while no process holds it: check the backup, copy it beside
 * the data file, keep the old file (hard link) and its -wal under a `.pre-restore-<time>` name, remove
 * the stale -shm, and rename the copy over the data file. At every moment the data path names a
 * whole database; the old -wal never meets the new file (SQLite would replay its pages into it).
 * @example restoreFrom("backups/feedbase-2026-11-23T02-00-00.000Z.db", "/var/lib/feedbase/feedbase.db", new Date())
 */
export function restoreFrom(backup: string, dataPath: string, now: Date): Restored {
  const wal = `${dataPath}-wal`;
  const shm = `${dataPath}-shm`;
  const holders = processesHolding([dataPath, wal, shm]);
  if (holders.length > 0) {
    const who = holders.map((h) => `${h.pid} (${h.command})`).join(", ");
    throw new DataFileError(`${dataPath} is in use by process ${who}: stop the server (systemctl stop feedbase) and restore again`);
  }
  const schema = checkBackup(backup);
  if (!existsSync(dirname(dataPath))) throw new DataFileError(`Cannot restore into ${dataPath}: directory ${dirname(dataPath)} does not exist`);

  const staged = `${dataPath}.restoring-${process.pid}`;
  rmSync(staged, { force: true });
  try {
    copyDatabase(backup, staged);
    let previous: string | null = null;
    if (existsSync(dataPath)) {
      previous = `${dataPath}.pre-restore-${now.toISOString().replace(/:/g, "-")}`;
      linkSync(dataPath, previous);
      if (existsSync(wal)) renameSync(wal, `${previous}-wal`);
    }
    rmSync(shm, { force: true });
    renameSync(staged, dataPath);
    syncDirectory(dirname(dataPath));
    return { schema, previous };
  } finally {
    rmSync(staged, { force: true });
  }
}

/** A durable copy of the backup (with anything in its own -wal) as one self-contained file. */
function copyDatabase(from: string, to: string): void {
  let source: Database;
  try {
    source = new Database(from, { readonly: true, strict: true });
  } catch (error) {
    throw openFailure(from, error);
  }
  try {
    source.query("VACUUM INTO ?").run(to);
  } finally {
    source.close();
  }
  const fd = openSync(to, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Make the renames themselves durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
