/**
 * The threads of a process as Linux reports them (/proc/<pid>/task), for tests of the solver pool's
 * workers: Bun names a Worker's thread "Worker".
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ThreadInfo {
  tid: number;
  name: string;
  /** Field 19 of /proc/<pid>/task/<tid>/stat. */
  nice: number;
  /** Field 41: the scheduling policy (0 SCHED_OTHER, 5 SCHED_IDLE). */
  policy: number;
}

/**
 * @example threadsOf("self").filter((t) => t.name === "Worker").map((t) => t.nice) // [19]
 */
export function threadsOf(pid: number | "self"): ThreadInfo[] {
  const dir = `/proc/${pid}/task`;
  return readdirSync(dir).flatMap((tid) => {
    try {
      const stat = readFileSync(`${dir}/${tid}/stat`, "utf8");
      // Fields after the name, which is in parentheses and may hold spaces: the state is field 3, nice field 19, the policy field 41.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return [{ tid: Number(tid), name: readFileSync(`${dir}/${tid}/comm`, "utf8").trim(), nice: Number(fields[16]), policy: Number(fields[38]) }];
    } catch {
      // The thread ended between the listing and the read.
      return [];
    }
  });
}
