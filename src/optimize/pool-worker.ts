/**
 * A worker of the solver pool (./pool.ts): its own HiGHS, one task at a time. Loading starts at once
 * and "ready" is posted when done; the message handler is installed before anything is awaited (a
 * message that arrives while a top-level await is pending would be lost).
 */
import { setPriority } from "node:os";
import { causeOf } from "./solver-errors.ts";
import { SOLVER_WASM, solverRuntime } from "./runtime.ts";
import { runTask, type TaskKind } from "./tasks.ts";
import { WORKER_NICE, type FromWorker, type ToWorker } from "./pool-protocol.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);

/**
 * The worker's thread gives way to the event loop's when the cores are short (docs/decisions.md#solver-pool).
 * On Linux a thread's nice value is its own and setpriority(PRIO_PROCESS, 0) names the calling thread;
 * elsewhere the same call would lower the whole process, event loop included, so it is not made.
 * @returns the nice value set, or why none was
 */
function giveWay(): number | string {
  if (process.platform !== "linux") return `not on ${process.platform}`;
  try {
    setPriority(0, WORKER_NICE);
    return WORKER_NICE;
  } catch (error) {
    return String(error);
  }
}
const nice = giveWay();

const highs = solverRuntime();
highs.then(
  (h) => post({ type: "ready", version: h.version.string, wasm: SOLVER_WASM, nice }),
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
