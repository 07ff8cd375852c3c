import { Database, SQLiteError } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { isPlaceholder, MIGRATION_STEPS, SCHEMA_VERSION } from "./migrations.ts";
import { transaction } from "./transaction.ts";

/**
 * The data file cannot be used as asked; the message names the file and the cause in one line.
 * @example throw new DataFileError("feedbase.db is not a feedbase data file (not an SQLite database)")
 */
export class DataFileError extends Error {}

/**
 * True when SQLite could not get the space a write needed (SQLITE_FULL: the disk is full, or the test
 * cap below was reached). Callers answer 503 or refuse the command instead of failing opaquely.
 * @example if (isStorageFull(error)) throw new HttpError(503, "Storage full")
 */
export function isStorageFull(error: unknown): boolean {
  return error instanceof SQLiteError && error.code === "SQLITE_FULL";
}

/** The data file does not exist and the caller may not create it. */
export class DataFileMissingError extends DataFileError {
  constructor(readonly path: string) {
    super(`No data file at ${path} (run feedbase serve once, or pass --data)`);
  }
}

/**
 * Why SQLite could not open `path`, in words an admin can act on; SQLite itself only says "unable to
 * open database file" whatever the cause.
 * @example openFailure("/srv/missing/feedbase.db", error).message // "Cannot open data file /srv/missing/feedbase.db: directory /srv/missing does not exist"
 */
export function openFailure(path: string, error: unknown): DataFileError {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_NOTADB") return new DataFileError(`${path} is not a feedbase data file (not an SQLite database)`);
  const dir = dirname(path);
  let cause = (error as Error).message ?? String(error);
  if (!existsSync(dir)) cause = `directory ${dir} does not exist`;
  else if (existsSync(path) && statSync(path).isDirectory()) cause = "it is a directory";
  return new DataFileError(`Cannot open data file ${path}: ${cause}`);
}

export interface OpenOptions {
  /** Only `serve` and `demo` may create a missing file, so a key is never issued into a stray one. */
  create: boolean;
  readonly?: boolean;
  /** Told where an older file was copied before it was migrated (serve logs it). */
  onSchemaCopy?: (copy: string, schema: number) => void;
}

/**
 * Open the data file with the durability settings of docs/decisions.md#storage-and-operations and bring its schema up to date.
 * @example const db = openDatabase("feedbase.db", { create: true });
 */
export function openDatabase(path: string, options: OpenOptions): Database {
  // The file holds key hashes and webhook secrets: it, its -wal/-shm and backups are for the service user alone.
  process.umask(0o077);
  if (!options.create && (path === ":memory:" || !existsSync(path))) throw new DataFileMissingError(path);
  let db: Database;
  try {
    db = new Database(path, { create: options.create, readwrite: true, strict: true });
    // busy_timeout before anything else: switching to WAL itself can meet a lock held by the other process.
    db.run("PRAGMA busy_timeout = 5000");
    // The first statement that reads the file: a file that is not a database fails here.
    db.run("PRAGMA journal_mode = WAL");
  } catch (error) {
    throw openFailure(path, error);
  }
  db.run("PRAGMA synchronous = FULL");
  db.run("PRAGMA foreign_keys = ON");
  capPagesForTests(db);
  try {
    migrate(db, path, options.onSchemaCopy);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Bring the schema up to date. A file from a newer feedbase is refused (its tables may mean what this
 * one does not know); an older one is first copied beside itself as `<file>.pre-schema-<n>`, so a
 * migration that goes wrong, or a change of mind, can go back (docs/decisions.md#faults).
 */
function migrate(db: Database, path: string, onSchemaCopy: OpenOptions["onSchemaCopy"]): void {
  const current = () => (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  const found = current();
  if (found > SCHEMA_VERSION) throw new DataFileError(`This data file has schema ${found}; this feedbase knows up to ${SCHEMA_VERSION}: upgrade feedbase`);
  if (found === SCHEMA_VERSION) return;
  if (found > 0 && path !== ":memory:") {
    const copy = `${path}.pre-schema-${found}`;
    // Another process opening the same old file at the same time may have made it already.
    if (!existsSync(copy)) db.run("VACUUM INTO ?", [copy]);
    onSchemaCopy?.(copy, found);
  }
  // IMMEDIATE takes the write lock first, so a server and a CLI opening a new file together migrate once.
  transaction(db, () => {
    for (let version = current(); version < SCHEMA_VERSION; version++) {
      const step = MIGRATION_STEPS[version]!.sqlite;
      if (!isPlaceholder(step)) db.run(step);
      db.run(`PRAGMA user_version = ${version + 1}`);
    }
  });
}

/**
 * FEEDBASE_TEST_MAX_PAGES=<n> caps the file at n pages (SQLite's max_page_count; it never goes below the
 * file's current size), so a test can make the "disk" full on any machine without a small filesystem.
 */
function capPagesForTests(db: Database): void {
  const cap = process.env.FEEDBASE_TEST_MAX_PAGES;
  if (cap === undefined || cap === "") return;
  if (!/^\d+$/.test(cap)) throw new Error(`FEEDBASE_TEST_MAX_PAGES must be a whole number, not ${cap}`);
  db.run(`PRAGMA max_page_count = ${cap}`);
}

/**
 * Close the data file so that, if no other process has it open, the file alone holds everything: move
 * the WAL into it and empty it (TRUNCATE), then close for real, which fails if a statement is still
 * prepared (SQLite would otherwise keep the connection open and the -wal and -shm beside the file). With
 * another process on the file (the server, for an admin command), the checkpoint does not wait for it:
 * the WAL is that process's to fold in when it closes. docs/decisions.md#faults.
 * @example closeDatabase(db) // feedbase.db-wal and feedbase.db-shm are gone
 */
export function closeDatabase(db: Database): void {
  try {
    db.run("PRAGMA busy_timeout = 0");
    // PASSIVE copies the WAL without blocking the server's writers; the TRUNCATE after it, which does
    // block them, then has almost nothing left to copy (an admin command must not stall the server).
    db.run("PRAGMA wal_checkpoint(PASSIVE)");
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // Busy or a full disk: the WAL stays and holds the data; closing below still works.
  }
  // bun:sqlite caches 20 statements; beyond that `query` hands out statements that are finalized only
  // when collected. Collect them, then close for real. The collector scans the stack conservatively, so
  // one may survive every pass: then close lazily (SQLite closes once that statement is finalized). The
  // checkpoint above already put everything in the file, so a command that wrote must not fail here.
  for (let pass = 0; pass < 3; pass++) {
    try {
      db.close(true);
      return;
    } catch {
      Bun.gc(true);
    }
  }
  db.close(false);
}
