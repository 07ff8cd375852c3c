import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { DataFileError } from "./db.ts";

export interface Holder {
  pid: number;
  /** Its command line, for the refusal message. */
  command: string;
}

/**
 * Other processes that have any of `paths` open, found as fuser(1) does: the links in /proc/<pid>/fd.
 * SQLite keeps the data file and its -wal/-shm open for as long as a connection lives, idle or not, so
 * this sees a server between requests, which no SQLite lock would (WAL readers take locks only while
 * they read). A process whose descriptors this user may not read is not seen: run as root or as the
 * service user, who owns both the server and the file.
 * @example processesHolding(["/var/lib/feedbase/feedbase.db"]) // [{ pid: 812, command: "/usr/bin/feedbase serve" }]
 */
export function processesHolding(paths: readonly string[]): Holder[] {
  const targets = new Set(paths.filter((p) => existsSync(p)).map((p) => realpathSync(p)));
  if (targets.size === 0) return [];
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    throw new DataFileError(`Cannot tell whether a server holds ${paths[0]}: /proc is not readable`);
  }
  const holders: Holder[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // exited meanwhile, or another user's
    }
    const holds = fds.some((fd) => {
      try {
        return targets.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) holders.push({ pid: Number(pid), command: commandOf(pid) });
  }
  return holders;
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "?";
  }
}
