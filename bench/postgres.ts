/**
 * The PostgreSQL side of `make bench`: the throwaway cluster test/postgres/cluster.sh runs the bench
 * beside (it sets FEEDBASE_TEST_PG_URL), a new database in it for each figure, and a copy of a SQLite
 * data file there made by the product itself (`feedbase copy-to`, so keys and history come along).
 * Databases are not dropped: the cluster is removed with everything in it when the bench ends.
 */
import { SQL } from "bun";

/** The cluster's admin URL, or null when the bench runs without one (then the PostgreSQL figures are left out, with a note). */
export const PG_ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL ?? null;

/** Why a PostgreSQL figure is missing when there is no cluster. */
export const NO_CLUSTER = "PostgreSQL not measured: run through `make bench`, which starts a throwaway cluster (test/postgres/cluster.sh)";

export interface BenchDatabase {
  /** `postgres://…/<database>`: what `--database` takes. */
  url: string;
  /** The server's version (`SHOW server_version`). */
  version: string;
}

/**
 * A new, empty database in the cluster, named after `label` and this process.
 * @example const { url } = await createDatabase("import") // then `feedbase import ingredients x.csv --database ${url}`
 */
export async function createDatabase(label: string): Promise<BenchDatabase> {
  if (!PG_ADMIN_URL) throw new Error(NO_CLUSTER);
  const name = `feedbase_bench_${label}_${process.pid}`;
  const admin = new SQL(PG_ADMIN_URL, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const version = ((await admin`SHOW server_version`) as { server_version: string }[])[0]!.server_version;
    const url = new URL(PG_ADMIN_URL);
    url.pathname = "/" + name;
    return { url: url.href, version };
  } finally {
    await admin.close();
  }
}

/**
 * A new database holding a copy of the SQLite file at `dataPath`, made by `exe copy-to`.
 * @example const pg = await copyToPostgres("dist/feedbase", "/tmp/x/feedbase.db", "serve") // serve --database pg.url
 */
export async function copyToPostgres(exe: string, dataPath: string, label: string): Promise<BenchDatabase> {
  const db = await createDatabase(label);
  const proc = Bun.spawn([exe, "copy-to", db.url, "--data", dataPath], { stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 180_000);
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`feedbase copy-to failed (exit ${code}): ${stderr.trim()}`);
  return db;
}

/**
 * How many rows `table` of the database at `url` holds (a check that a measured command did its work).
 * @example await rowCount(url, "ingredients") // 50000
 */
export async function rowCount(url: string, table: string): Promise<number> {
  const sql = new SQL(url, { max: 1 });
  try {
    return Number(((await sql.unsafe(`SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[])[0]!.n);
  } finally {
    await sql.close();
  }
}
