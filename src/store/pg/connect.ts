/**
 * The PostgreSQL backend's connection: chosen by a `postgres://` or `postgresql://` URL, opened through
 * Bun.sql, its schema brought up to date under an advisory lock (instances starting together migrate
 * once). The URL's password is never printed: every message shows `redactUrl(url)`.
 */
import { SQL } from "bun";
import { DataFileError } from "../db.ts";
import { isPlaceholder, MIGRATION_STEPS, SCHEMA_VERSION } from "../migrations.ts";
import { redactUrl } from "./url.ts";

/** The advisory lock key the migrations hold (any constant; "feedbase" in ASCII, truncated). */
export const MIGRATION_LOCK = 0x66656564_62617365n;

export { isPostgresUrl, redactUrl } from "./url.ts";

/**
 * A pool's connections unless told (`serve --database-connections`'s default). Bun.sql opens them all at
 * the first query, each a server process; a served instance's requests, group commit and deliveries
 * share them (docs/decisions.md#serving-from-postgresql).
 */
export const DEFAULT_DATABASE_CONNECTIONS = 10;

export interface PgOptions {
  /** Connections in the pool (default {@link DEFAULT_DATABASE_CONNECTIONS}). */
  max?: number;
  /**
   * `serve`'s bounds (docs/decisions.md#database-faults): seconds to wait for a connection, and the
   * server-side statement and lock-wait timeouts of every session, in milliseconds. Admin commands
   * (an import, a copy) keep PostgreSQL's default of none.
   */
  timeouts?: { connectSeconds: number; statementMs: number; lockMs: number };
  /** The sessions' application_name: `serve` names its instance, so the others see it is alive (./live-claims.ts). */
  applicationName?: string;
}

/**
 * Connect, check the server answers, and bring the schema up to date. A refused connection, a wrong
 * password or a missing database is one line naming the redacted URL and PostgreSQL's reason.
 * @example const sql = await openPostgres("postgres://mill@127.0.0.1/feedbase")
 */
export async function openPostgres(url: string, options: PgOptions = {}): Promise<SQL> {
  const { timeouts, applicationName } = options;
  const sql = new SQL(url, {
    max: options.max ?? DEFAULT_DATABASE_CONNECTIONS,
    connectionTimeout: timeouts?.connectSeconds ?? 10,
    idleTimeout: 60,
    connection: {
      ...(timeouts ? { statement_timeout: timeouts.statementMs, lock_timeout: timeouts.lockMs } : {}),
      ...(applicationName !== undefined ? { application_name: applicationName } : {}),
    },
  });
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close().catch(() => {});
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(`Cannot use PostgreSQL at ${redactUrl(url)}: ${reason(error)}`);
  }
  return sql;
}

/** PostgreSQL's own words for a failure, without anything that could hold the password. */
function reason(error: unknown): string {
  const message = String((error as Error)?.message ?? error).replace(/\s+/g, " ").trim();
  return message === "" ? String((error as { code?: string }).code ?? "unknown error") : message;
}

/**
 * Before the steps were numbered in step with SQLite's, PostgreSQL counted its own two files: 1 was
 * SQLite's schema 7 in one file, 2 added rate_counts (now step 9). A row without `in_step` is in that
 * count and is translated once, in the migration's transaction.
 */
const OLD_COUNT_TO_STEP: Readonly<Record<number, number>> = { 1: 7, 2: 9 };

/**
 * Whether the schema is already this build's, read without a lock or a transaction: what nearly every
 * open finds, and then it takes neither the advisory lock nor feedbase_schema's ACCESS EXCLUSIVE lock
 * (the ALTER below), so commands and instances starting together do not queue behind each other.
 * No table or no `in_step` column yet (a new or an older database): false. So is a read that `serve`'s
 * lock or statement timeout cut short (another instance is migrating): the migration's transaction,
 * whose bounds are off, waits for it instead.
 */
async function isCurrent(sql: SQL): Promise<boolean> {
  try {
    const rows = (await sql`SELECT version, in_step FROM feedbase_schema`) as { version: number; in_step: boolean }[];
    return rows.length === 1 && rows[0]!.in_step && rows[0]!.version === SCHEMA_VERSION;
  } catch (error) {
    const errno = (error as { errno?: unknown } | null)?.errno;
    if (typeof errno === "string" && NOT_KNOWN_YET.has(errno)) return false;
    throw error;
  }
}
/** undefined_table, undefined_column, lock_not_available, query_canceled (a statement timeout). */
const NOT_KNOWN_YET = new Set(["42P01", "42703", "55P03", "57014"]);

/**
 * Apply the steps this database has not had, in one transaction under the advisory lock; a database
 * from a newer feedbase is refused, as a newer SQLite file is.
 */
async function migrate(sql: SQL): Promise<void> {
  if (await isCurrent(sql)) return;
  await sql.begin(async (tx) => {
    // A migration may rewrite a large table or wait for another instance's: the session's bounds are not for it.
    await tx`SET LOCAL statement_timeout = 0`;
    await tx`SET LOCAL lock_timeout = 0`;
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS feedbase_schema (version INTEGER NOT NULL)`;
    // The marker of the common count; a feedbase before it reads `version` alone and refuses a database
    // past its own count as newer.
    await tx`ALTER TABLE feedbase_schema ADD COLUMN IF NOT EXISTS in_step BOOLEAN NOT NULL DEFAULT false`;
    const rows = (await tx`SELECT version, in_step FROM feedbase_schema`) as { version: number; in_step: boolean }[];
    const row = rows[0];
    const found = row === undefined ? 0 : row.in_step ? row.version : (OLD_COUNT_TO_STEP[row.version] ?? row.version);
    if (found > SCHEMA_VERSION) {
      throw new DataFileError(`This database has schema ${found}; this feedbase knows up to ${SCHEMA_VERSION}: upgrade feedbase`);
    }
    for (let version = found; version < SCHEMA_VERSION; version++) {
      const step = MIGRATION_STEPS[version]!.pg;
      if (!isPlaceholder(step)) await tx.unsafe(step).simple();
    }
    if (row === undefined) await tx`INSERT INTO feedbase_schema (version, in_step) VALUES (${SCHEMA_VERSION}, true)`;
    else if (found < SCHEMA_VERSION || !row.in_step) await tx`UPDATE feedbase_schema SET version = ${SCHEMA_VERSION}, in_step = true`;
  });
}
