/**
 * Who may open the data file: its owner. Run as root on the service user's file, a command would leave
 * root-owned `-wal`/`-shm` that the service then cannot open (docs/decisions.md#faults).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { Option, type Command } from "commander";
import { CliFailure } from "./failure.ts";
import { onOff } from "./on-off.ts";

/**
 * `--allow-other-owner` on every command that takes `--data`: run as root on the service user's file, a
 * command leaves root-owned `-wal`/`-shm` that the service then cannot open (docs/decisions.md#faults).
 * @example addOwnerOption(program)
 */
export function addOwnerOption(command: Command): void {
  if (command.options.some((o) => o.long === "--data")) {
    command.addOption(
      new Option("--allow-other-owner [on|off]", "open a data file that another user owns (its -wal/-shm will be yours)")
        .env("FEEDBASE_ALLOW_OTHER_OWNER")
        .argParser(onOff("--allow-other-owner")),
    );
  }
  command.commands.forEach(addOwnerOption);
}

/** The user name of `uid`, from /etc/passwd; `uid <n>` when it has none. */
function userName(uid: number): string {
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [name, , id] = line.split(":");
      if (name && Number(id) === uid && id !== "") return name;
    }
  } catch {
    // No /etc/passwd: the number will do.
  }
  return `uid ${uid}`;
}

/**
 * Refuse a data file that belongs to another user unless `--allow-other-owner` was given; a missing
 * file is left to the open that follows.
 * @example refuseOtherOwner(opts) // throws: feedbase.db belongs to feedbase: run it as feedbase: sudo -u feedbase feedbase …
 */
export function refuseOtherOwner(opts: { data: string; allowOtherOwner?: boolean }): void {
  if (opts.allowOtherOwner || process.getuid === undefined || !existsSync(opts.data)) return;
  const owner = statSync(opts.data).uid;
  if (owner === process.getuid()) return;
  const name = userName(owner);
  const as = name.startsWith("uid ") ? `sudo -u '#${owner}'` : `sudo -u ${name}`;
  throw new CliFailure(`${opts.data} belongs to ${name}, not to you: run it as ${name}: ${as} feedbase … (or pass --allow-other-owner)`);
}
