/**
 * A worker of the solver pool (./pool.ts): its own HiGHS, one task at a time. Loading starts at once
 * and "ready" is posted when done; the message handler is installed before anything is awaited (a
 * message that arrives while a top-level await is pending would be lost).
 */
import { causeOf } from "./solver-errors.ts";
import { SOLVER_WASM, solverRuntime } from "./runtime.ts";
import { runTask, type TaskKind } from "./tasks.ts";
import type { FromWorker, ToWorker } from "./pool-protocol.ts";
import { idleCompilerThreads, lowerThisThread } from "./thread-priority.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);

// The solves take only the CPU the event loop (and the client beside it) leaves (./thread-priority.ts).
const priority = lowerThisThread();
/** JavaScriptCore starts compiler threads as the first solves need them: they are lowered after each of the first few. */
let compilerChecks = 4;

const highs = solverRuntime();
highs.then(
  (h) => post({ type: "ready", version: h.version.string, wasm: SOLVER_WASM, ...priority, compilers: idleCompilerThreads() }),
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
  if (priority.idle && compilerChecks > 0) {
    compilerChecks--;
    idleCompilerThreads();
  }
};
