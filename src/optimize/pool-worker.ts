/**
 * A worker of the solver pool (./pool.ts): its own HiGHS, one task at a time. Loading starts at once
 * and "ready" is posted when done; the message handler is installed before anything is awaited (a
 * message that arrives while a top-level await is pending would be lost).
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { setPriority } from "node:os";
import { causeOf } from "./solver-errors.ts";
import { SOLVER_WASM, solverRuntime } from "./runtime.ts";
import { runTask, type TaskKind } from "./tasks.ts";
import { WORKER_NICE, type FromWorker, type ToWorker } from "./pool-protocol.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);

/**
 * The worker's thread gives way to the event loop's when the cores are short (docs/decisions.md#solver-pool):
 * nice 19, then the SCHED_IDLE policy. On Linux both belong to the calling thread (setpriority and
 * sched_setscheduler with 0 name it); elsewhere the same calls would lower the whole process, event loop
 * included, so they are not made.
 * @returns the nice value set (or why none was), and whether the thread is SCHED_IDLE
 */
function giveWay(): { nice: number | string; idle: boolean } {
  if (process.platform !== "linux") return { nice: `not on ${process.platform}`, idle: false };
  try {
    setPriority(0, WORKER_NICE);
  } catch (error) {
    return { nice: String(error), idle: false };
  }
  return { nice: WORKER_NICE, idle: idlePolicy() };
}

/**
 * SCHED_IDLE for this thread. A nice value only orders the threads queued on one CPU: a solve at nice 19
 * keeps the other core, and the client or a proxy there waits its turn. A CPU running only SCHED_IDLE work
 * counts as idle when a woken thread chooses its CPU, and that thread preempts it at once.
 */
function idlePolicy(): boolean {
  try {
    const libc = dlopen("libc.so.6", { sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    try {
      return libc.symbols.sched_setscheduler(0, SCHED_IDLE, ptr(new Int32Array(1))) === 0;
    } finally {
      libc.close();
    }
  } catch {
    // No glibc (musl names it otherwise): nice 19 alone.
    return false;
  }
}
/** linux/sched.h; its sched_param (one int, the priority) must be 0. */
const SCHED_IDLE = 5;
const priority = giveWay();

const highs = solverRuntime();
highs.then(
  (h) => post({ type: "ready", version: h.version.string, wasm: SOLVER_WASM, ...priority }),
  (error: unknown) => post({ type: "broken", message: String(error) }),
);

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const { id, kind, input, base, json } = event.data;
  try {
    const whole = base === null ? input : { ...JSON.parse(base), ...(input as object) };
    const output = runTask(await highs, kind as TaskKind, whole as never);
    post({ type: "done", id, output: json ? JSON.stringify(output) : output });
  } catch (error) {
    post({ type: "failed", id, cause: causeOf(error), message: (error as Error)?.message ?? String(error), stack: String((error as Error)?.stack ?? error) });
  }
};
