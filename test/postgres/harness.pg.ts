/**
 * PostgreSQL only (make test-postgres): the harness's PostgreSQL mode and the connection it builds on.
 * A temporary data file stands for a fresh database of its own, emptied afterwards for the next one; a key made by the
 * harness is one the backend's key store finds; openPostgres migrates once under concurrency, refuses a
 * newer schema and never shows a password; names sort exactly as SQLite sorts them.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { DataFileError } from "../../src/store/db.ts";
import { MIGRATION_LOCK, openPostgres } from "../../src/store/pg/connect.ts";
import { findKey } from "../../src/store/keys.ts";
import { SCHEMA_VERSION } from "../../src/store/migrations.ts";
import { tempDir } from "../helpers/harness.ts";
import { createKeyRow, databaseArgs, databaseEnv, databaseFor, POSTGRES_MODE, psql } from "../helpers/postgres.ts";

const ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL!;
const open: SQL[] = [];
afterAll(async () => {
  for (const sql of open) await sql.close();
});
async function connect(url: string): Promise<SQL> {
  const sql = await openPostgres(url, { max: 2 });
  open.push(sql);
  return sql;
}
const databaseNames = () => psql(ADMIN_URL, "SELECT datname FROM pg_database").split("\n");

describe("the harness in PostgreSQL mode", () => {
  test("is on (this file runs only under make test-postgres)", () => {
    expect(POSTGRES_MODE).toBe(true);
  });

  test("each temporary data file stands for a fresh database of its own, emptied by cleanup even while connected, then handed out again", async () => {
    const a = tempDir();
    const b = tempDir();
    const urlA = databaseFor(a.dataPath)!;
    const urlB = databaseFor(b.dataPath)!;
    expect(urlA).toMatch(/^postgres:\/\/feedbase@127\.0\.0\.1:\d+\/fbtest_/);
    expect(urlB).not.toBe(urlA);
    const sqlA = await connect(urlA);
    expect(await sqlA`SELECT slug FROM workspaces`).toEqual([{ slug: "default" }]);
    await sqlA`INSERT INTO workspaces (slug, name, created_at) VALUES ('north', 'North', '2026-11-21T12:00:00.000Z')`;
    const sqlB = await connect(urlB);
    expect(await sqlB`SELECT slug FROM workspaces ORDER BY slug`).toEqual([{ slug: "default" }]);
    const nameA = new URL(urlA).pathname.slice(1);
    const sessions = (name: string) => psql(ADMIN_URL, `SELECT count(*) FROM pg_stat_activity WHERE datname = :'name'`, { name }).trim();
    expect(Number(sessions(nameA))).toBeGreaterThan(0);
    a.cleanup();
    b.cleanup();
    expect(databaseFor(a.dataPath)).toBeUndefined();
    // Emptied: no session left on it, nothing in it (the schema version table included).
    expect(sessions(nameA)).toBe("0");
    expect(psql(urlA, "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'").trim()).toBe("0");
    // The next two temporary files get them back, and each is as new: migrated from nothing on first use.
    const c = tempDir();
    const d = tempDir();
    try {
      expect([databaseFor(c.dataPath), databaseFor(d.dataPath)].sort()).toEqual([urlA, urlB].sort());
      const sqlC = await connect(databaseFor(c.dataPath)!);
      expect(await sqlC`SELECT slug FROM workspaces ORDER BY slug`).toEqual([{ slug: "default" }]);
      expect(await sqlC`SELECT version FROM feedbase_schema`).toEqual([{ version: SCHEMA_VERSION }]);
    } finally {
      c.cleanup();
      d.cleanup();
    }
  });

  test("a database a test dropped itself is not handed out again", () => {
    const a = tempDir();
    const name = new URL(databaseFor(a.dataPath)!).pathname.slice(1);
    psql(ADMIN_URL, `DROP DATABASE ${name} WITH (FORCE)`);
    a.cleanup();
    const b = tempDir();
    try {
      expect(databaseFor(b.dataPath)).not.toContain(name);
      expect(databaseNames()).toContain(new URL(databaseFor(b.dataPath)!).pathname.slice(1));
    } finally {
      b.cleanup();
    }
  });

  test("a command line or environment naming the data file names its database instead; other paths stay", () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      expect(databaseArgs(["key", "list", "--data", tmp.dataPath, "--json"])).toEqual(["key", "list", "--database", url, "--json"]);
      expect(databaseArgs(["backup", `--data=${tmp.dataPath}`])).toEqual(["backup", "--database", url]);
      expect(databaseArgs(["demo", "--data", `${tmp.dir}/other.db`])).toEqual(["demo", "--data", `${tmp.dir}/other.db`]);
      expect(databaseEnv({ FEEDBASE_DATA: tmp.dataPath, FEEDBASE_PORT: "0" })).toEqual({ FEEDBASE_DATABASE_URL: url, FEEDBASE_PORT: "0" });
    } finally {
      tmp.cleanup();
    }
  });

  test("an SQLite file written at the data path in PostgreSQL mode fails the cleanup", () => {
    const tmp = tempDir();
    writeFileSync(tmp.dataPath, "");
    expect(() => tmp.cleanup()).toThrow("was written as an SQLite file in PostgreSQL mode");
  });

  test("a key the harness makes is found by the PostgreSQL key store with its rights; an unknown workspace is refused", async () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      const sql = await connect(url);
      const key = createKeyRow(url, { workspace: "default", write: true, rateLimit: 250 });
      expect(await findKey(sql, key)).toMatchObject({ workspaceId: 1, canWrite: true, active: true, rateLimit: 250 });
      expect(await findKey(sql, key + "x")).toBeNull();
      expect(() => createKeyRow(url, { workspace: "nowhere", write: false, rateLimit: 1 })).toThrow("No workspace named nowhere");
    } finally {
      tmp.cleanup();
    }
  });
});

describe("openPostgres", () => {
  test("instances opening a new database together migrate it once", async () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      const all = await Promise.all([1, 2, 3, 4].map(() => connect(url)));
      expect(await all[0]!`SELECT version FROM feedbase_schema`).toEqual([{ version: SCHEMA_VERSION }]);
      expect(await all[3]!`SELECT count(*)::int AS n FROM workspaces`).toEqual([{ n: 1 }]);
    } finally {
      tmp.cleanup();
    }
  });

  test("a database already migrated opens without the migration's lock: one read, while another session holds it", async () => {
    const tmp = tempDir();
    const holder = new SQL(databaseFor(tmp.dataPath)!, { max: 1 });
    try {
      const url = databaseFor(tmp.dataPath)!;
      await connect(url);
      await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
      // Before, every open took the lock (and feedbase_schema's ACCESS EXCLUSIVE): it waited here until released.
      const opened = await Promise.race([connect(url).then(() => "opened"), Bun.sleep(10_000).then(() => "still waiting for the lock after 10 s")]);
      expect(opened).toBe("opened");
    } finally {
      await holder.close();
      tmp.cleanup();
    }
  });

  test("an open with serve's lock timeout that meets another session's migration waits for it, past the timeout", async () => {
    const tmp = tempDir();
    const url = databaseFor(tmp.dataPath)!;
    await connect(url);
    const holder = new SQL(url, { max: 1 });
    let release = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another instance migrating: feedbase_schema locked as its ALTER locks it, until its transaction ends.
    const migrating = holder.begin(async (tx) => {
      await tx`LOCK TABLE feedbase_schema IN ACCESS EXCLUSIVE MODE`;
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await isLocked;
      const lockMs = 100;
      const opening = openPostgres(url, { max: 1, timeouts: { connectSeconds: 3, statementMs: 5_000, lockMs } }).then(
        (sql) => (open.push(sql), "opened"),
        (error: Error) => error.message,
      );
      // Several times the lock timeout: the first read has been cut short by now.
      await Bun.sleep(lockMs * 5);
      release();
      await migrating;
      expect(await opening).toBe("opened");
    } finally {
      release();
      await holder.close();
      tmp.cleanup();
    }
  });

  test("a database from a newer feedbase is refused with one line", async () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      await connect(url);
      psql(url, `UPDATE feedbase_schema SET version = ${SCHEMA_VERSION + 1}`);
      const error = await openPostgres(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataFileError);
      expect((error as Error).message).toBe(`This database has schema ${SCHEMA_VERSION + 1}; this feedbase knows up to ${SCHEMA_VERSION}: upgrade feedbase`);
    } finally {
      tmp.cleanup();
    }
  });

  test("a database that is not there is one line naming the URL without its password", async () => {
    const url = new URL(ADMIN_URL);
    url.password = "s3cret-pw";
    url.pathname = "/fbtest_missing";
    const error = await openPostgres(url.href).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFileError);
    const message = (error as Error).message;
    expect(message).toStartWith(`Cannot use PostgreSQL at postgres://feedbase:***@${url.host}/fbtest_missing: `);
    expect(message).toContain("fbtest_missing");
    expect(message).not.toContain("s3cret-pw");
    expect(message).not.toContain("\n");
  });
});

describe("name order", () => {
  test("ORDER BY fb_nocase(name), name is SQLite's COLLATE NOCASE then bytes, for ASCII case, accents, symbols and emoji", async () => {
    const names = ["b", "B", "a", "A", "ab", "aB", "Ab", "AB", "_x", "[x", "Z", "z", "é", "É", "e", "E", "ß", "ss", "SS", "Ω", "ω", "🐄", "a b", "a-b", "a1", "a10", "a2", "Éa", "éA", "ZZ", "zz", "~", "@"];
    const lite = new Database(":memory:");
    lite.run("CREATE TABLE t (name TEXT)");
    for (const name of names) lite.query("INSERT INTO t VALUES (?)").run(name);
    const sqliteOrder = (lite.query("SELECT name FROM t ORDER BY name COLLATE NOCASE, name").all() as { name: string }[]).map((r) => r.name);
    lite.close();
    const tmp = tempDir();
    try {
      const sql = await connect(databaseFor(tmp.dataPath)!);
      await sql`CREATE TABLE t (name TEXT NOT NULL COLLATE "C")`;
      for (const name of names) await sql`INSERT INTO t VALUES (${name})`;
      const rows = (await sql`SELECT name FROM t ORDER BY fb_nocase(name), name`) as { name: string }[];
      expect(rows.map((r) => r.name)).toEqual(sqliteOrder);
    } finally {
      tmp.cleanup();
    }
  });
});
