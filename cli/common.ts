import { InvalidArgumentError, Option, type Command } from "commander";
import { openStore } from "../src/open/open.ts";
import type { Store } from "../src/open/store.ts";
import { instant } from "../src/schemas/time.ts";
import type { Workspace } from "../src/store/workspaces.ts";
import { dataLocation, locationName } from "./location.ts";
import type { Io } from "./io.ts";
import { refuseOtherOwner } from "./owner.ts";
import { CliFailure, UsageError } from "./failure.ts";
import { validateSuppliedSecret } from "../src/webhooks/secret.ts";
import { readFileSync } from "node:fs";

/**
 * `--data <file>` with env FEEDBASE_DATA and the default of docs/decisions.md#command-line; every data command takes it.
 * @example command.addOption(dataOption())
 */
export function dataOption(): Option {
  return new Option("--data <file>", "the data file").env("FEEDBASE_DATA").default("./feedbase.db");
}

/** An open data store, as a command's action sees it inside `withData`. */
export interface DataStore {
  store: Store;
  /** The workspace of the command's `--workspace` (default `default`); an unknown one is refused. */
  workspace(): Promise<Workspace>;
  /** Where the data is, as messages name it: the file, or the database's URL without its password. */
  where: string;
}

/** The options every data command has: `--data`, and `--database` beside it (cli/location.ts). */
export interface DataOptions {
  data: string;
  database?: string | undefined;
  workspace?: string;
  allowOtherOwner?: boolean;
}

/**
 * Open the data of `--data` or `--database` (a missing file is refused, never created), run `fn`, and
 * always close, whether `fn` returns, throws or rejects. Writes go through the store's named operations,
 * each in its own transaction. Closing an SQLite file folds the WAL into it (`closeDatabase`), so after
 * the command the file alone is complete; a file another user owns is refused first (`refuseOtherOwner`).
 * @example .action((opts) => withData(opts, async ({ store, workspace }) => store.listKeys((await workspace()).id)))
 */
export async function withData<T>(opts: DataOptions, fn: (data: DataStore) => T | Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  const location = dataLocation(opts);
  if (location.kind === "sqlite") refuseOtherOwner(opts);
  const store = await openStore(location, { create: options.create === true });
  try {
    return await fn({ store, workspace: async () => store.requireWorkspace(opts.workspace ?? "default"), where: locationName(location) });
  } finally {
    await store.close();
  }
}

/**
 * `--workspace <slug>` with the command's own wording; `fallback` is the default (null: none, the
 * command means every workspace when none is given).
 * @example command.addOption(workspaceOption("workspace to import into"))
 */
export function workspaceOption(description: string, fallback: string | null = "default"): Option {
  const option = new Option("--workspace <slug>", description);
  return fallback === null ? option : option.default(fallback);
}

/** `--json` with the command's wording of what it prints. @example command.addOption(jsonOption("print one JSON object")) */
export function jsonOption(description = "one JSON object per line"): Option {
  return new Option("--json", description);
}

/**
 * A commander value parser for whole numbers in a range; a bad value is a usage error (exit 2).
 * @example new Option("--rate-limit <n>").argParser(intInRange("--rate-limit", 1, 1_000_000))
 */
export function intInRange(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max.toLocaleString("en-US")}`);
    }
    return n;
  };
}

/**
 * An option holding an instant (`--at`, `--since`, `--from`, `--to`), read as the API reads its query
 * parameter of that name; a bad value is a usage error (exit 2).
 * @example command.addOption(instantOption("--since <time>", "compare with the prices then"))
 */
export function instantOption(flags: string, description: string, rounding: "down" | "up" = "down"): Option {
  const name = /^--(\w+)/.exec(flags)![1]!;
  const schema = instant(name, rounding);
  return new Option(flags, `${description} (ISO 8601, e.g. 2026-10-01T00:00:00Z, or a date 2026-10-01 meaning its 00:00 UTC)`).argParser((value: string) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new InvalidArgumentError(`--${name} must be an ISO 8601 date-time with a time zone, such as 2026-10-01T00:00:00Z, or a date such as 2026-10-01`);
    return parsed.data;
  });
}

/** `--json` on a command that shows one thing: the route's `data`, as one JSON document. */
export function printDocument(io: Io, data: unknown): void {
  io.out(JSON.stringify(data) + "\n");
}

/**
 * A figure with its sign, for changes: `+2.98`, `-1.50`, `0.00`.
 * @example signed(2.98) // "+2.98"
 */
export const signed = (n: number, decimals = 2): string => (n > 0 ? "+" : "") + n.toFixed(decimals);

/**
 * A commander value parser for a fixed set of words, in any case (`--format CSV` is `csv`), as the
 * CSV import reads `inStock`; anything else is a usage error (exit 2) listing the choices.
 * @example new Option("--format <format>", "json or csv").argParser(oneOf("--format", ["json", "csv"]))
 */
export function oneOf<T extends string>(name: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    const word = value.toLowerCase() as T;
    if (!choices.includes(word)) throw new InvalidArgumentError(`${name} must be one of ${choices.join(", ")} (any case)`);
    return word;
  };
}

export { onOff } from "./on-off.ts";

/**
 * Print rows as an aligned table, or as JSON lines with `--json`.
 * @example printRows(io, keys, [["ID", (k) => k.id], ["WRITE", (k) => (k.write ? "yes" : "no")]], opts.json)
 */
export function printRows<T>(io: Io, rows: readonly T[], columns: [string, (row: T) => string][], json: boolean | undefined): void {
  if (json) {
    io.out(rows.map((r) => JSON.stringify(r) + "\n").join(""));
    return;
  }
  if (rows.length === 0) {
    io.out("(none)\n");
    return;
  }
  const cells = rows.map((r) => columns.map(([, get]) => get(r)));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd() + "\n";
  io.out(line(columns.map(([t]) => t)) + cells.map(line).join(""));
}

/** Attach an example block to a command's help. @example withExamples(cmd, ["feedbase key list --json"]) */
export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText("after", "\nExamples:\n" + examples.map((e) => `  $ ${e}`).join("\n") + "\n");
}

// Secret input: from a file or the environment, never an argument (command lines end up in shell history and `ps`).

/**
 * A secret file's content; its trailing newline is not part of the secret. Unreadable: exit 1.
 * @example const secret = checkedSecret(readSecretFile("erp.secret"))
 */
export function readSecretFile(file: string): string {
  try {
    return readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new CliFailure(`Cannot read secret file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The secret, when it is fit to sign with; too short is a usage error (exit 2). @example checkedSecret("whsec_…") */
export function checkedSecret(secret: string): string {
  try {
    validateSuppliedSecret(secret);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return secret;
}

/**
 * A secret an admin supplies: `--secret-file`, else env `FEEDBASE_WEBHOOK_SECRET`, else undefined.
 * Never an argument: command lines end up in shell history and `ps`.
 * @example const secret = suppliedSecret(io, opts.secretFile) ?? generateSecret()
 */
export function suppliedSecret(io: Io, secretFile: string | undefined): string | undefined {
  const secret = secretFile !== undefined ? readSecretFile(secretFile) : io.env.FEEDBASE_WEBHOOK_SECRET || undefined;
  return secret === undefined ? undefined : checkedSecret(secret);
}
