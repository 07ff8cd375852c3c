/**
 * Choosing the backend on the command line: `--database <url>` beside every `--data`, usage errors
 * (exit 2) for both given the same way or a URL that is not PostgreSQL's, the command line winning
 * over the environment, backup and restore pointing to PostgreSQL's own tools, and a URL's password
 * never printed. Nothing here needs a PostgreSQL server: each case is decided before connecting.
 */
import { describe, expect, test } from "bun:test";
import type { Command } from "commander";
import { buildProgram } from "../cli/program.ts";
import { cli, tempDir } from "./helpers/harness.ts";

const SECRET = "s3cret-never-shown";
const PG_URL = `postgres://mill:${SECRET}@127.0.0.1:1/feedbase`;
const PASSWORD_WARNING = "warning: the password in --database is visible to every user of this machine (ps); set FEEDBASE_DATABASE_URL or use --database-password-file instead";

function commands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commands)];
}

describe("--database", () => {
  test("every command that takes --data takes --database (env FEEDBASE_DATABASE_URL) too, but copy-to, whose --data is its source", async () => {
    const program = await buildProgram({ out: () => {}, err: () => {}, stdin: async () => "", stdinIsTTY: false, env: {} });
    const withData = commands(program).filter((c) => c.options.some((o) => o.long === "--data"));
    expect(withData.length).toBeGreaterThan(25);
    for (const command of withData) {
      const database = command.options.find((o) => o.long === "--database");
      if (command.name() === "copy-to") expect(database).toBeUndefined();
      else expect({ command: command.name(), env: database?.envVar }).toEqual({ command: command.name(), env: "FEEDBASE_DATABASE_URL" });
    }
    const help = await cli(["key", "list", "--help"]);
    expect(help.stdout).toContain("--database <url>");
    expect(help.stdout).toContain("PostgreSQL database");
  });

  test("--data and --database both on the command line is a usage error naming both (exit 2), the password not shown", async () => {
    const r = await cli(["key", "list", "--data", "x.db", "--database", PG_URL]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "error: --data and --database are both given: give one (--data names an SQLite file, --database a PostgreSQL database)\n" });
  });

  test("FEEDBASE_DATA and FEEDBASE_DATABASE_URL both set is a usage error (exit 2)", async () => {
    const r = await cli(["webhook", "list"], { env: { FEEDBASE_DATA: "x.db", FEEDBASE_DATABASE_URL: PG_URL } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: FEEDBASE_DATA and FEEDBASE_DATABASE_URL are both set: give one (--data names an SQLite file, --database a PostgreSQL database)\n");
  });

  test("a URL that is not PostgreSQL's is a usage error, shown without its password", async () => {
    for (const url of [`mysql://mill:${SECRET}@db/feedbase`, "./feedbase.db"]) {
      const r = await cli(["workspace", "list", "--database", url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toStartWith("error: --database must be a postgres:// or postgresql:// URL, not ");
      expect(r.stderr).not.toContain(SECRET);
    }
  });

  test("the command line wins over the environment: --data over FEEDBASE_DATABASE_URL, --database over FEEDBASE_DATA", async () => {
    const tmp = tempDir();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const onFile = await cli(["key", "list", "--data", tmp.dataPath], { env: { FEEDBASE_DATABASE_URL: PG_URL } });
      expect(onFile.code).toBe(0);
      expect(onFile.stdout).toContain("demo write");
      // Nobody listens on port 1: the failure shows the command went to PostgreSQL, and names it without the password.
      const onPg = await cli(["key", "list", "--database", PG_URL], { env: { FEEDBASE_DATA: tmp.dataPath } });
      expect(onPg.code).toBe(1);
      const [warning, error, ...more] = onPg.stderr.trimEnd().split("\n");
      expect(warning).toBe(PASSWORD_WARNING);
      expect(error).toStartWith("error: Cannot use PostgreSQL at postgres://mill:***@127.0.0.1:1/feedbase: ");
      expect(more).toEqual([]);
      expect(onPg.stderr).not.toContain(SECRET);
    } finally {
      tmp.cleanup();
    }
  });

  test("issue 29: an unparsable URL is one usage line (exit 2), no stack trace, no password", async () => {
    const r = await cli(["key", "list", "--database", `postgres://fb:${SECRET}@[::1:1/db`]);
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: --database is not a valid URL (postgres://***): write it as postgres://user@host:5432/name, an IPv6 host in brackets\n",
    });
  });

  test("issue 29: the password can stay out of ps: from FEEDBASE_DATABASE_URL without a word, or from --database-password-file (env FEEDBASE_DATABASE_PASSWORD_FILE); on the command line it is taken with a warning", async () => {
    const tmp = tempDir();
    try {
      const file = `${tmp.dir}/pg-password`;
      await Bun.write(file, `${SECRET}\n`);
      const bare = "postgres://mill@127.0.0.1:1/feedbase";
      // Nobody listens on port 1: the failure names the URL the command connected with, its password hidden.
      const oneLine = (r: { code: number; stderr: string }) => ({ code: r.code, lines: r.stderr.trimEnd().split("\n").map((l) => l.replace(/(feedbase): .*$/, "$1: …")) });
      const refused = { code: 1, lines: ["error: Cannot use PostgreSQL at postgres://mill:***@127.0.0.1:1/feedbase: …"] };
      expect(oneLine(await cli(["key", "list", "--database", bare, "--database-password-file", file]))).toEqual(refused);
      expect(oneLine(await cli(["key", "list", "--database", bare], { env: { FEEDBASE_DATABASE_PASSWORD_FILE: file } }))).toEqual(refused);
      expect(oneLine(await cli(["key", "list"], { env: { FEEDBASE_DATABASE_URL: PG_URL } }))).toEqual(refused);
      // Without the file, the same URL has no password at all.
      expect(oneLine(await cli(["key", "list", "--database", bare]))).toEqual({ code: 1, lines: ["error: Cannot use PostgreSQL at postgres://mill@127.0.0.1:1/feedbase: …"] });
      expect((await cli(["key", "list", "--database", PG_URL])).stderr).toStartWith(PASSWORD_WARNING + "\n");

      const twice = await cli(["key", "list", "--database", PG_URL, "--database-password-file", file]);
      expect(twice).toEqual({ code: 2, stdout: "", stderr: "error: --database postgres://mill:***@127.0.0.1:1/feedbase holds a password and --database-password-file gives another: give it once\n" });
      await Bun.write(file, "");
      expect((await cli(["key", "list", "--database", bare, "--database-password-file", file])).stderr).toBe(`error: --database-password-file ${file} is empty\n`);
      const missing = await cli(["key", "list", "--database", bare, "--database-password-file", `${tmp.dir}/nope`]);
      expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 1, stderr: `error: Cannot read --database-password-file ${tmp.dir}/nope: ENOENT\n` });
    } finally {
      tmp.cleanup();
    }
  });

  test("backup and restore on PostgreSQL refuse in one line (exit 1) pointing to pg_dump and pg_restore", async () => {
    const backup = await cli(["backup", "copy.db", "--database", PG_URL]);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toBe(
      PASSWORD_WARNING +
        '\nerror: backup works on SQLite data files; for the PostgreSQL database postgres://mill:***@127.0.0.1:1/feedbase use pg_dump --format=custom --file=feedbase.dump "$FEEDBASE_DATABASE_URL" (docs/postgresql.md: Backups on PostgreSQL)\n',
    );
    const restore = await cli(["restore", "copy.db"], { env: { FEEDBASE_DATABASE_URL: PG_URL } });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("use pg_restore ");
    expect(restore.stderr).not.toContain(SECRET);
  });
});

describe("copy-to", () => {
  test("needs a PostgreSQL URL (exit 2), and an unreachable one is one line without the password (exit 1)", async () => {
    const tmp = tempDir();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const notPg = await cli(["copy-to", tmp.dataPath, "--data", tmp.dataPath]);
      expect(notPg.code).toBe(2);
      expect(notPg.stderr).toBe(`error: copy-to needs a postgres:// or postgresql:// URL, not ${tmp.dataPath}\n`);
      const down = await cli(["copy-to", PG_URL, "--data", tmp.dataPath]);
      expect(down.code).toBe(1);
      expect(down.stderr).toStartWith("error: Cannot use PostgreSQL at postgres://mill:***@127.0.0.1:1/feedbase: ");
      expect(down.stdout + down.stderr).not.toContain(SECRET);
    } finally {
      tmp.cleanup();
    }
  });

  test("help says what it does, with examples", async () => {
    const help = await cli(["copy-to", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("into an empty PostgreSQL database");
    expect(help.stdout).toContain("$ feedbase copy-to ");
  });
});
