/**
 * A worker of the solver pool (./pool.ts): its own HiGHS, one task at a time. Loading starts at once
 * and "ready" is posted when done; the message handler is installed before anything is awaited (a
 * message that arrives while a top-level await is pending would be lost).
 */
import { causeOf } from "./solver-errors.ts";
import { SOLVER_WASM, solverRuntime } from "./runtime.ts";
import { runTask, type TaskKind } from "./tasks.ts";
import type { FromWorker, ToWorker } from "./pool-protocol.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);


const highs = solverRuntime();
highs.then(
  (h) => post({ type: "ready", version: h.version.string, wasm: SOLVER_WASM }),
  (error: unknown) => post({ type: "broken", message: String(error) }),
);

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const { id, kind, input } = event.data;
  try {
    const output = runTask(await highs, kind as TaskKind, input as never);
    post({ type: "done", id, output });
  } catch (error) {
    post({ type: "failed", id, cause: causeOf(error), message: (error as Error)?.message ?? String(error), stack: String((error as Error)?.stack ?? error) });
  }
};
