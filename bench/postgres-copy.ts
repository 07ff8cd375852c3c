import { SQL } from "bun";

/** How a bench script runs one `feedbase` command line: its exit code and stderr. */
export type RunFeedbase = (argv: string[]) => Promise<{ code: number; stderr: string }>;

/** A database of make bench's throwaway cluster (empty, or holding a copy of a data file). */
export interface PostgresCopy {
  /** The database's URL, for `serve --database` and the admin commands. */
  url: string;
  /** The server's version, for the report. */
  version: string;
  /** Drops the database (the throwaway cluster goes anyway; a cluster that stays should not keep it). */
  drop(): Promise<void>;
}

/**
 * A new, empty database `name` in the cluster at `adminUrl` (a command given its URL makes the schema).
 * @example const pg = await createDatabase(process.env.FEEDBASE_TEST_PG_URL!, `feedbase_bench_import_${process.pid}`)
 */
export async function createDatabase(adminUrl: string, name: string): Promise<PostgresCopy> {
  const admin = new SQL(adminUrl, { max: 1 });
  let version: string;
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
    version = ((await admin`SHOW server_version`) as { server_version: string }[])[0]!.server_version;
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = "/" + name;
  const drop = async () => {
    const admin = new SQL(adminUrl, { max: 1 });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.close();
    }
  };
  return { url: url.href, version, drop };
}

/**
 * A new database `name` in the cluster at `adminUrl` holding a copy of the data file at `dataPath`,
 * made by `feedbase copy-to` (so keys and webhooks come along and work as they do on SQLite): the
 * PostgreSQL side of a bench scenario then serves the same data as its SQLite side.
 * @example const pg = await copyToPostgres(process.env.FEEDBASE_TEST_PG_URL!, `feedbase_bench_${process.pid}`, dataPath, (argv) => exec([exe, ...argv]))
 */
export async function copyToPostgres(adminUrl: string, name: string, dataPath: string, feedbase: RunFeedbase): Promise<PostgresCopy> {
  const db = await createDatabase(adminUrl, name);
  const copied = await feedbase(["copy-to", db.url, "--data", dataPath]);
  if (copied.code !== 0) {
    await db.drop();
    throw new Error(`feedbase copy-to failed: ${copied.stderr.trim()}`);
  }
  return db;
}
