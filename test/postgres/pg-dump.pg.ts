/**
 * PostgreSQL only (make test-postgres): docs/postgresql.md's backup and restore on PostgreSQL ("Backups on
 * PostgreSQL") work on a mill moved there: pg_dump of a database copy-to filled, a change made after
 * it, pg_restore --clean over the database: every table as it was at the dump, the ids going on after
 * the restored ones, and the mill's keys still known.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, tempDir } from "../helpers/harness.ts";
import { databaseFor, pgTool, psql } from "../helpers/postgres.ts";
import { copiedTableList } from "../helpers/schema.ts";

const COPIED_TABLES = copiedTableList();

/** One digest per copied table over all its rows: equal digests, equal tables. */
const fingerprint = (url: string) =>
  Object.fromEntries(COPIED_TABLES.map((table) => [table, psql(url, `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM ${table} t`).trim()]));

function run(command: string[]): void {
  const done = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`${command[0]} failed (${done.exitCode}): ${done.stderr.toString().trim()}`);
}

describe("backups on PostgreSQL (docs/postgresql.md)", () => {
  test("pg_dump, then pg_restore --clean --if-exists over the database: as at the dump, ids going on, keys known", async () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      const mill = join(tmp.dir, "mill.db");
      const demo = await cli(["demo", "--data", mill]);
      expect(demo.code).toBe(0);
      const [, readKey, readId] = /^Read key: +(fbk_\w{40}) +\((key_\w+), read-only\)$/m.exec(demo.stdout)!;
      expect((await cli(["copy-to", url, "--data", mill])).code).toBe(0);
      const atDump = fingerprint(url);
      expect(Number(atDump.price_history!.split(":")[0])).toBeGreaterThan(100);

      const dump = join(tmp.dir, "feedbase.dump");
      run([pgTool("pg_dump"), "--format=custom", `--file=${dump}`, url]);
      expect((await cli(["workspace", "create", "after-dump", "--data", tmp.dataPath])).code).toBe(0);
      expect(fingerprint(url)).not.toEqual(atDump);

      run([pgTool("pg_restore"), "--clean", "--if-exists", "--single-transaction", `--dbname=${url}`, dump]);
      expect(fingerprint(url)).toEqual(atDump);
      expect((await cli(["workspace", "create", "north-mill", "--data", tmp.dataPath])).code).toBe(0);
      const listed = (await cli(["workspace", "list", "--json", "--data", tmp.dataPath])).stdout.trim().split("\n").map((line) => JSON.parse(line));
      expect(listed.map((w) => w.slug).sort()).toEqual(["default", "north-mill"]);
      const identified = await cli(["key", "identify", "--json", "--data", tmp.dataPath], { stdin: readKey });
      expect(identified.code).toBe(0);
      expect(JSON.parse(identified.stdout)).toMatchObject({ id: readId, workspace: "default", write: false, active: true });
    } finally {
      tmp.cleanup();
    }
  });
});
