import { Option, type Command } from "commander";
import { dataOption, intInRange, printRows, withExamples, withData, workspaceOption, jsonOption } from "./common.ts";
import { CliFailure, UsageError } from "./failure.ts";
import type { Io } from "./io.ts";
import type { AdminStore } from "../src/admin/ops.ts";
import { API_KEY_PREFIX } from "../src/domain/ids.ts";
import { isoTime } from "../src/domain/time.ts";

const RATE_LIMIT_MAX = 1_000_000;

/**
 * A key id argument. Anything else is refused without echoing it: an admin who pastes the key itself
 * must not see it printed back (terminal scrollback, CI logs, screen shares).
 * @example keyId("key_3hT9aQ0xLw2M") // "key_3hT9aQ0xLw2M"
 */
function keyId(value: string): string {
  if (value.startsWith("key_")) return value;
  const what = value.startsWith(API_KEY_PREFIX) ? "got a key itself (not printed)" : "got something else (not printed)";
  throw new UsageError(`Expected a key id (key_…), ${what}: find a key's id with "feedbase key identify" (reads the key from stdin) or "feedbase key list"`);
}

/** The one key on stdin (surrounding whitespace dropped); the prompt goes to stderr only at a terminal. */
async function keyFromStdin(io: Io): Promise<string> {
  if (io.stdinIsTTY) io.err("Paste the key, then press Enter and Ctrl-D:\n");
  const key = (await io.stdin()).trim();
  if (key === "") throw new UsageError("Give the key on stdin, e.g. feedbase key identify < erp.key");
  if (/\s/.test(key)) throw new UsageError("Give one key on stdin (the input holds several words; none is printed)");
  return key;
}

/** `feedbase key ...`: issue keys and change their permission, limit and state. Never prints a key twice. */
export function registerKey(program: Command, io: Io): void {
  const group = program.command("key").description("API keys: issue, list, permissions, rate limits, (de)activation");

  withExamples(
    group
      .command("create")
      .description("issue a key (printed once; only its hash is stored)")
      .addOption(workspaceOption("workspace the key reads and writes"))
      .option("--write", "allow POST and PUT (read-only otherwise)")
      .addOption(new Option("--rate-limit <n>", "requests per hour (spec: 100 default, 1000 custom plans; 1..1,000,000 on-premises)").default(100).argParser(intInRange("--rate-limit", 1, RATE_LIMIT_MAX)))
      .option("--label <text>", "a note to tell keys apart")
      .addOption(jsonOption("print one JSON object"))
      .addOption(dataOption())
      .action(
        (opts: { workspace: string; write?: boolean; rateLimit: number; label?: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const write = opts.write === true;
            const { id, key } = await store.createKey({ workspaceId: ws.id, write, rateLimit: opts.rateLimit, label: opts.label ?? null, now: isoTime(Date.now()) });
            if (opts.json) {
              io.out(JSON.stringify({ id, key, workspace: ws.slug, write, rateLimit: opts.rateLimit, label: opts.label ?? null }) + "\n");
            } else {
              io.out(
                `Key:    ${key}\nId:     ${id}\nAccess: ${write ? "read and write" : "read-only"}, ${opts.rateLimit} requests/hour, workspace ${ws.slug}\n` +
                  `Store the key now: it is not shown again.\n`,
              );
            }
          });
        },
      ),
    ["feedbase key create --write --label 'ERP sync'", "feedbase key create --workspace north-mill --rate-limit 1000 --json"],
  );

  withExamples(
    group
      .command("list")
      .description("list keys (never the key itself)")
      .addOption(workspaceOption("only this workspace", null))
      .addOption(jsonOption("one JSON object per line"))
      .addOption(dataOption())
      .action(
        (opts: { workspace?: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const rows = await store.listKeys(opts.workspace ? (await workspace()).id : undefined);
            printRows(io,
              rows,
              [
                ["ID", (k) => k.id],
                ["WORKSPACE", (k) => k.workspace],
                ["KEY", (k) => k.hint],
                ["WRITE", (k) => (k.write ? "yes" : "no")],
                ["ACTIVE", (k) => (k.active ? "yes" : "no")],
                ["LIMIT/H", (k) => String(k.rateLimit)],
                ["LABEL", (k) => k.label ?? ""],
                ["CREATED", (k) => k.createdAt],
              ],
              opts.json,
            );
          });
        },
      ),
    ["feedbase key list", "feedbase key list --workspace default --json"],
  );

  withExamples(
    group
      .command("identify")
      .description("read a key from stdin and print its id (key_…), to manage a key you hold; never prints the key")
      .addOption(jsonOption("print one JSON object"))
      .addOption(dataOption())
      .action(
        async (opts: { json?: boolean; data: string }) => {
          const key = await keyFromStdin(io);
          const { found, where } = await withData(opts, async ({ store, where }) => ({ found: await store.identifyKey(key), where }));
          if (!found) throw new CliFailure(`No key in ${where} matches the key read from stdin (it is not printed)`);
          if (opts.json) io.out(JSON.stringify(found) + "\n");
          else {
            const access = `${found.write ? "read and write" : "read-only"}, ${found.rateLimit} requests/hour, ${found.active ? "active" : "deactivated"}`;
            io.out(`${found.id}  (workspace ${found.workspace}, ${access}${found.label ? `, label ${JSON.stringify(found.label)}` : ""})\n`);
          }
        },
      ),
    ["feedbase key identify < erp.key", "printf '%s' \"$KEY\" | feedbase key identify --json"],
  );

  const setter = (name: string, description: string, change: (store: AdminStore, id: string) => unknown, done: string) =>
    withExamples(
      group
        .command(`${name} <id>`)
        .description(description)
        .addOption(dataOption())
        .action(
          async (given: string, opts: { data: string }) => {
            const id = keyId(given);
            await withData(opts, ({ store }) => change(store, id));
            io.out(`${done} ${id}\n`);
          },
        ),
      [`feedbase key ${name} key_3hT9aQ0xLw2M`],
    );
  setter("grant-write", "allow a key to POST and PUT", (store, id) => store.setKeyWrite(id, true), "Write permission granted to");
  setter("revoke-write", "make a key read-only", (store, id) => store.setKeyWrite(id, false), "Write permission revoked from");
  setter("deactivate", "refuse a key (401) from the next request on", (store, id) => store.setKeyActive(id, false), "Deactivated");
  setter("activate", "accept a deactivated key again", (store, id) => store.setKeyActive(id, true), "Activated");

  withExamples(
    group
      .command("set-rate-limit <id> <n>")
      .description("set a key's requests per hour (applies to the running server at once)")
      .addOption(dataOption())
      .action(
        async (given: string, n: string, opts: { data: string }) => {
          const id = keyId(given);
          const limit = intInRange("rate limit", 1, RATE_LIMIT_MAX)(n);
          await withData(opts, ({ store }) => store.setKeyRateLimit(id, limit));
          io.out(`Rate limit of ${id} is now ${limit} requests/hour\n`);
        },
      ),
    ["feedbase key set-rate-limit key_3hT9aQ0xLw2M 1000"],
  );
}
