/**
 * `--database <url>` beside every `--data <file>`: which backend a command works on
 * (docs/decisions.md#postgresql). Resolved before the action runs, so an action only ever sees one of
 * the two: `dataLocation(opts)`.
 */
import { Option, type Command } from "commander";
import type { DataLocation } from "../src/store/location.ts";
import { isPostgresUrl, redactUrl } from "../src/store/pg/url.ts";
import { withPassword } from "./database-password.ts";
import { CliFailure, UsageError } from "./failure.ts";

/** Commands whose `--data` is not "the data to work on" (copy-to reads it and writes a URL it is given). */
const OWN_TARGET = new Set(["copy-to"]);

/**
 * Add `--database <url>` (env FEEDBASE_DATABASE_URL) to every command that takes `--data`, and check it
 * before the action: not a PostgreSQL URL, or given the same way as `--data` (both on the command line,
 * or both in the environment), is a usage error (exit 2); one on the command line and the other in the
 * environment: the command line wins, as for every option. The URL is shown only redacted.
 * @example addDatabaseOption(program)
 */
export function addDatabaseOption(program: Command, warn: (line: string) => void): void {
  const walk = (command: Command) => {
    if (command.options.some((o) => o.long === "--data") && !OWN_TARGET.has(command.name())) {
      command.addOption(
        new Option("--database <url>", "work on this PostgreSQL database instead of an SQLite file (postgres://user@host:5432/name; the password is never printed)").env(
          "FEEDBASE_DATABASE_URL",
        ),
      );
      command.addOption(
        new Option("--database-password-file <file>", "the --database password, read from this file (one line): kept out of ps").env("FEEDBASE_DATABASE_PASSWORD_FILE"),
      );
    }
    command.commands.forEach(walk);
  };
  walk(program);
  program.hook("preAction", (_program, action) => checkDatabaseOption(action, warn));
}

function checkDatabaseOption(command: Command, warn: (line: string) => void): void {
  const url = command.getOptionValue("database") as string | undefined;
  if (url === undefined) return;
  const dataFrom = command.getOptionValueSource("data");
  const urlFrom = command.getOptionValueSource("database");
  if (dataFrom === urlFrom) {
    const how = urlFrom === "env" ? "FEEDBASE_DATA and FEEDBASE_DATABASE_URL are both set" : "--data and --database are both given";
    throw new UsageError(`${how}: give one (--data names an SQLite file, --database a PostgreSQL database)`);
  }
  if (dataFrom === "cli") {
    command.setOptionValueWithSource("database", undefined, "default");
    return;
  }
  if (!isPostgresUrl(url)) throw new UsageError(`--database must be a postgres:// or postgresql:// URL, not ${redactUrl(url)}`);
  const passwordFile = command.getOptionValue("databasePasswordFile") as string | undefined;
  command.setOptionValueWithSource("database", withPassword(url, { passwordFile, urlOnCommandLine: urlFrom === "cli", warn }), urlFrom);
}

/**
 * Where a command's data is, from its checked options.
 * @example dataLocation({ data: "./feedbase.db" }) // { kind: "sqlite", path: "./feedbase.db" }
 */
export function dataLocation(opts: { data: string; database?: string | undefined }): DataLocation {
  return opts.database !== undefined ? { kind: "postgres", url: opts.database } : { kind: "sqlite", path: opts.data };
}

/**
 * A location as messages name it: the file, or the URL without its password.
 * @example locationName({ kind: "postgres", url: "postgres://mill:pw@db/feedbase" }) // "postgres://mill:***@db/feedbase"
 */
export function locationName(location: DataLocation): string {
  return location.kind === "sqlite" ? location.path : redactUrl(location.url);
}

/**
 * `backup` and `restore` work on SQLite files; on PostgreSQL the database's own tools do it, and the
 * command says which in one line (exit 1).
 * @example refuseOnPostgres("backup", opts, "pg_dump --format=custom --file=feedbase.dump \"$FEEDBASE_DATABASE_URL\"")
 */
export function refuseOnPostgres(command: string, opts: { data: string; database?: string | undefined }, instead: string): void {
  if (opts.database === undefined) return;
  throw new CliFailure(`${command} works on SQLite data files; for the PostgreSQL database ${redactUrl(opts.database)} use ${instead} (docs/postgresql.md: Backups on PostgreSQL)`);
}
