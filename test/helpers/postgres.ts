/**
 * The suite's PostgreSQL mode (`make test-postgres`): with FEEDBASE_TEST_BACKEND=postgres and
 * FEEDBASE_TEST_PG_URL=<a superuser's URL on a throwaway cluster>, every temporary data "file" the
 * harness hands out is a fresh database of its own, and a command line naming that file is turned into
 * the same command on the database. Tests stay as they are: the harness does the translating.
 * Everything here is synchronous (psql through Bun.spawnSync) because `tempDir()`, its `cleanup()` and
 * `t.key()` are: the tests call them without await.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { newKeyRow } from "../../src/store/key-rows.ts";
import type { DataLocation } from "../../src/store/location.ts";

/** True when the suite runs against PostgreSQL. */
export const POSTGRES_MODE = process.env.FEEDBASE_TEST_BACKEND === "postgres";

const ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL ?? "";
if (POSTGRES_MODE && ADMIN_URL === "") throw new Error("FEEDBASE_TEST_BACKEND=postgres needs FEEDBASE_TEST_PG_URL (make test-postgres sets both)");

/** Data path → the URL of the database that stands for it. */
const databases = new Map<string, string>();
let made = 0;
/**
 * Databases this process made and a test has given back, emptied: the next `tempDir()` takes one. On
 * the suite's 2 cores a CREATE DATABASE took 406 ms and a DROP 431 ms on average (each writes or
 * checkpoints the whole database), emptying one about 90 ms.
 */
const spare: string[] = [];

/**
 * A fresh database standing for `dataPath` from now on (a new one, or a spare emptied one: either has
 * nothing in it, no schema version included); its URL.
 * @example const url = createTestDatabase("/tmp/feedbase-test-x/feedbase.db")
 */
export function createTestDatabase(dataPath: string): string {
  let name = spare.pop();
  if (name === undefined) {
    name = `fbtest_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`;
    psql(ADMIN_URL, `CREATE DATABASE ${name}`);
  }
  const url = new URL(ADMIN_URL);
  url.pathname = "/" + name;
  databases.set(dataPath, url.href);
  return url.href;
}

/**
 * Give back the database standing for `dataPath`, emptied for the next test: connections still open to
 * it are ended first (a test that failed half-way must not keep it), then its one schema is dropped and
 * made again. In PostgreSQL mode nothing may have written an SQLite file at that path: it would mean a
 * command ran on SQLite while the test believed it ran on PostgreSQL.
 */
export function dropTestDatabase(dataPath: string): void {
  const url = databases.get(dataPath);
  if (url === undefined) return;
  databases.delete(dataPath);
  try {
    psql(
      url,
      `SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();
       DROP SCHEMA public CASCADE;
       CREATE SCHEMA public`,
    );
    spare.push(new URL(url).pathname.slice(1));
  } catch (error) {
    // A test of a database that goes away dropped it itself: nothing to give back.
    if (!/FATAL: +database "[^"]+" does not exist/.test(String((error as Error).message))) throw error;
  }
  if (existsSync(dataPath)) throw new Error(`${dataPath} was written as an SQLite file in PostgreSQL mode: a command missed --database`);
}

/** The URL of the database standing for `dataPath`, if one does. */
export function databaseFor(dataPath: string): string | undefined {
  return databases.get(dataPath);
}

/**
 * Where the data of `dataPath` lives for a service started in-process: its SQLite file, or the database standing for it.
 * @example startService({ data: dataLocation(tmp.dataPath), host: "127.0.0.1", port: 0, logger })
 */
export function dataLocation(dataPath: string): DataLocation {
  const url = databases.get(dataPath);
  return url === undefined ? { kind: "sqlite", path: dataPath } : { kind: "postgres", url };
}

/**
 * A command line with `--data <a registered path>` (or `--data=<path>`) turned into `--database <its url>`.
 * @example databaseArgs(["key", "list", "--data", path]) // ["key", "list", "--database", "postgres://…"]
 */
export function databaseArgs(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === "--data" && next !== undefined && databases.has(next)) {
      out.push("--database", databases.get(next)!);
      i++;
    } else if (arg.startsWith("--data=") && databases.has(arg.slice("--data=".length))) {
      out.push("--database", databases.get(arg.slice("--data=".length))!);
    } else out.push(arg);
  }
  return out;
}

/**
 * An environment with FEEDBASE_DATA=<a registered path> turned into FEEDBASE_DATABASE_URL=<its url>.
 * @example databaseEnv({ FEEDBASE_DATA: path }) // { FEEDBASE_DATABASE_URL: "postgres://…" }
 */
export function databaseEnv(env: Record<string, string> | undefined): Record<string, string> | undefined {
  const path = env?.FEEDBASE_DATA;
  if (path === undefined || !databases.has(path)) return env;
  const { FEEDBASE_DATA: _, ...rest } = env!;
  return { ...rest, FEEDBASE_DATABASE_URL: databases.get(path)! };
}

/**
 * An API key made straight in the database, as `t.key()` makes one in the SQLite file: the row is the
 * project's own (`newKeyRow`: the key's SHA-256 and hint), written with psql.
 * @example const key = createKeyRow(url, { workspace: "default", write: true, rateLimit: 100 })
 */
export function createKeyRow(url: string, spec: { workspace: string; write: boolean; rateLimit: number }): string {
  // The workspace's id is looked up in the INSERT itself: one psql (a process and a connection) per key.
  const { key, row } = newKeyRow({ workspaceId: 0, write: spec.write, rateLimit: spec.rateLimit, label: null, now: new Date().toISOString() });
  const inserted = psql(
    url,
    `INSERT INTO api_keys (id, workspace_id, key_hash, hint, label, can_write, active, rate_limit, created_at)
     SELECT :'id', id, :'hash', :'hint', NULL, :'write', 1, :'rate', :'created' FROM workspaces WHERE slug = :'slug'
     RETURNING 1`,
    { slug: spec.workspace, id: row.id, hash: row.keyHash, hint: row.hint, write: String(row.canWrite), rate: String(row.rateLimit), created: row.createdAt },
  );
  if (inserted.trim() === "") throw new Error(`No workspace named ${spec.workspace} (see feedbase workspace list)`);
  return key;
}

/**
 * Run SQL with psql and return what it printed (unaligned, tuples only); `vars` are psql variables,
 * quoted by psql where the script says `:'name'`. Throws with psql's message on any error.
 * @example psql(url, "SELECT count(*) FROM events") // "3\n"
 */
export function psql(url: string, script: string, vars: Record<string, string> = {}): string {
  const args = [PSQL, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", url];
  for (const [name, value] of Object.entries(vars)) args.push("-v", `${name}=${value}`);
  const run = Bun.spawnSync(args, { stdin: new TextEncoder().encode(script + ";\n"), stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`psql failed (${run.exitCode}): ${run.stderr.toString().trim()}`);
  return run.stdout.toString();
}

/**
 * A PostgreSQL client program of the newest version Debian installed (/usr/lib/postgresql/<v>/bin: the
 * /usr/bin ones are a Perl wrapper that picks it, and costs a start each call); else the one on PATH.
 * @example pgTool("pg_dump") // "/usr/lib/postgresql/15/bin/pg_dump"
 */
export function pgTool(name: string): string {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return name;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", name))).sort((a, b) => Number(b) - Number(a));
  return versions[0] !== undefined ? join(root, versions[0], "bin", name) : name;
}
const PSQL = pgTool("psql");
