/**
 * How the solver's threads give way to the event loop when the cores are short
 * (docs/decisions.md#solver-pool). Linux only: there a thread's nice value and scheduling policy are its
 * own (setpriority and sched_setscheduler with 0 name the calling thread, a thread id names that thread);
 * elsewhere the same calls would lower the whole process, event loop included, so they are not made.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { WORKER_NICE } from "./pool-protocol.ts";

/** linux/sched.h; its sched_param (one int, the priority) must be 0. */
const SCHED_IDLE = 5;
const ZERO_PRIORITY = new Int32Array(1);
/**
 * JavaScriptCore's compiler threads, which tier up the worker's WebAssembly (HiGHS) at normal priority:
 * with 4 large solves in flight they took about a third of the CPU the solves did.
 */
const COMPILER_THREADS = new Set(["JITWorker", "JSCWarmUp"]);

let libc: ReturnType<typeof openLibc> | null | undefined;
const openLibc = () => dlopen("libc.so.6", { sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });

/** SCHED_IDLE for a thread (0: the calling one); false where glibc is not there to ask (musl names it otherwise). */
function idle(tid: number): boolean {
  if (libc === undefined) {
    try {
      libc = openLibc();
    } catch {
      libc = null;
    }
  }
  return libc !== null && libc.symbols.sched_setscheduler(tid, SCHED_IDLE, ptr(ZERO_PRIORITY)) === 0;
}

/**
 * Lower the calling thread: nice 19, then SCHED_IDLE. A nice value only orders the threads queued on one
 * CPU: a solve at nice 19 keeps the other core, and the client or a proxy there waits its turn. A CPU
 * running only SCHED_IDLE work counts as idle when a woken thread chooses its CPU, and that thread
 * preempts it at once.
 * @returns the nice value set (or why none was), and whether the thread is SCHED_IDLE
 * @example const { nice, idle } = lowerThisThread() // { nice: 19, idle: true }
 */
export function lowerThisThread(): { nice: number | string; idle: boolean } {
  if (process.platform !== "linux") return { nice: `not on ${process.platform}`, idle: false };
  try {
    setPriority(0, WORKER_NICE);
  } catch (error) {
    return { nice: String(error), idle: false };
  }
  return { nice: WORKER_NICE, idle: idle(0) };
}

/**
 * SCHED_IDLE for the process's compiler threads, which JavaScriptCore starts as it needs them (call again
 * after the first solves). They serve the event loop's code too: under full load its tier-ups wait for
 * an idle moment, which its code, compiled in the first seconds, rarely needs.
 * @returns how many compiler threads are SCHED_IDLE now
 */
export function idleCompilerThreads(): number {
  if (process.platform !== "linux") return 0;
  let lowered = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      if (COMPILER_THREADS.has(readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim()) && idle(Number(tid))) lowered++;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return lowered;
}
