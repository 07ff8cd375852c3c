/**
 * What bench/run.ts needs to know about the machine: its description, whether it is idle, how much
 * CPU other processes took during a run (so a disturbed run is noted, not silently averaged in),
 * process memory, and a free loopback port. Linux only (/proc).
 */
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";

/** Clock ticks per second of /proc/stat and /proc/<pid>/stat (USER_HZ, 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/** Whole-machine CPU counters in ticks, summed over all cores. */
export interface CpuTimes {
  /** user + nice + system + irq + softirq */
  busy: number;
  /** time the hypervisor gave to someone else */
  steal: number;
  total: number;
}

/** @example const before = cpuTimes(); ...; const busyTicks = cpuTimes().busy - before.busy */
export function cpuTimes(): CpuTimes {
  const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + steal + idle + iowait };
}

/**
 * CPU time a live process has used, in ticks (utime + stime); with `thread`, that thread's alone (a
 * process's main thread has its pid: the server's event loop, without its solver workers).
 * @example processTicks(server.pid); processTicks(server.pid, server.pid)
 */
export function processTicks(pid: number, thread?: number): number {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may contain spaces.
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(rest[11]) + Number(rest[12]);
}

/** Microseconds of CPU (as Bun's resourceUsage and process.cpuUsage give them) in ticks. */
export const microsToTicks = (us: number | bigint): number => (Number(us) / 1e6) * TICKS_PER_SECOND;

/**
 * A memory figure of a live process from /proc/<pid>/status, in KiB: `VmRSS` now, `VmHWM` the peak.
 * @example memoryKiB(server.pid, "VmHWM") // 61234
 */
export function memoryKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(field + ":"));
  return line ? Number(line.split(/\s+/)[1]) : NaN;
}

/** Share of all cores busy (steal included) over `ms`. */
async function busyShare(ms: number): Promise<number> {
  const a = cpuTimes();
  await Bun.sleep(ms);
  const b = cpuTimes();
  const total = b.total - a.total;
  return total > 0 ? (b.busy + b.steal - a.busy - a.steal) / total : 0;
}

/** How the wait for an idle machine went. */
export interface IdleWait {
  waitedMs: number;
  idle: boolean;
  /** Busy share of all cores in the last sample (0..1). */
  lastBusy: number;
}

/**
 * Wait, at most `maxMs`, until the machine is idle: a 300 ms sample with under `threshold` of all
 * cores busy. Returns without being idle when the time is up (the caller notes the run).
 * @example const w = await waitForIdle(4000); if (!w.idle) note("started under load")
 */
export async function waitForIdle(maxMs: number, threshold = 0.1): Promise<IdleWait> {
  const started = Date.now();
  let lastBusy = 1;
  do {
    lastBusy = await busyShare(300);
    if (lastBusy < threshold) return { waitedMs: Date.now() - started, idle: true, lastBusy };
  } while (Date.now() - started < maxMs);
  return { waitedMs: Date.now() - started, idle: false, lastBusy };
}

/**
 * Measures how much CPU went to processes other than the ones a run accounts for.
 * @example const m = startCpuMeter([server.pid]); ...run...; const { otherCores } = m.stop(wrkMicros)
 */
export function startCpuMeter(pids: number[]) {
  const started = performance.now();
  const machine = cpuTimes();
  const own = pids.map((pid) => processTicks(pid));
  const self = process.cpuUsage();
  return {
    /** `exitedMicros`: CPU of the run's processes that have already exited (wrk, from resourceUsage). */
    stop(exitedMicros: number): { otherCores: number; stealCores: number; pidsCpuSeconds: number } {
      const seconds = (performance.now() - started) / 1000;
      const now = cpuTimes();
      const runner = process.cpuUsage(self);
      const pidsTicks = pids.reduce((sum, pid, i) => sum + processTicks(pid) - own[i]!, 0);
      const ownTicks = pidsTicks + microsToTicks(exitedMicros) + microsToTicks(runner.user + runner.system);
      const otherTicks = Math.max(0, now.busy - machine.busy - ownTicks);
      return {
        otherCores: otherTicks / TICKS_PER_SECOND / seconds,
        stealCores: (now.steal - machine.steal) / TICKS_PER_SECOND / seconds,
        // The measured processes' own CPU (the server's): less sensitive to other load than throughput.
        pidsCpuSeconds: pidsTicks / TICKS_PER_SECOND,
      };
    },
  };
}

/** @example describeMachine() // { cpu: "Intel(R) Xeon(R) Processor", cores: 2, memoryGiB: 23.5, kernel: "6.1.0" } */
export function describeMachine(): { cpu: string; cores: number; memoryGiB: number; kernel: string } {
  const list = cpus();
  return { cpu: list[0]?.model.trim() ?? "unknown", cores: list.length, memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)), kernel: release() };
}

/** A loopback port free right now (the OS picks it; released before returning). @example const port = freePort() */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}
