/**
 * A worker of the solver pool (./pool.ts): its own HiGHS, one task at a time. The pool's first message
 * is HiGHS compiled by an earlier worker, or null (then this one compiles it, and sends the module back
 * with "ready"); "ready" is posted once it is instantiated. The message handler is installed before
 * anything is awaited (a message that arrives while a top-level await is pending would be lost).
 */
import type { Highs } from "highs";
import { causeOf } from "./solver-errors.ts";
import { instantiateSolver, SOLVER_WASM, solverModule } from "./runtime.ts";
import { runTask, type TaskKind } from "./tasks.ts";
import type { FromWorker, ToWorker } from "./pool-protocol.ts";
import { idleCompilerThreads, lowerThisThread } from "./thread-priority.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);

// The solves take only the CPU the event loop (and the client beside it) leaves (./thread-priority.ts).
const priority = lowerThisThread();
/** JavaScriptCore starts compiler threads as the first solves need them: they are lowered after each of the first few. */
let compilerChecks = 4;

/** Set by the first message; tasks come only after "ready". */
let highs: Highs | null = null;

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "module") {
    const compiled = message.module === null ? solverModule() : Promise.resolve(message.module);
    compiled.then(instantiateSolver).then(
      async (h) => {
        highs = h;
        post({ type: "ready", version: h.version.string, wasm: SOLVER_WASM, ...priority, compilers: idleCompilerThreads(), module: message.module === null ? await compiled : null });
      },
      (error: unknown) => post({ type: "broken", message: String(error) }),
    );
    return;
  }
  const { id, kind, input, base, json } = message;
  try {
    const whole = base === null ? input : { ...JSON.parse(base), ...(input as object) };
    const output = runTask(highs!, kind as TaskKind, whole as never);
    post({ type: "done", id, output: json ? JSON.stringify(output) : output });
  } catch (error) {
    post({ type: "failed", id, cause: causeOf(error), message: (error as Error)?.message ?? String(error), stack: String((error as Error)?.stack ?? error) });
  }
  if (priority.idle && compilerChecks > 0) {
    compilerChecks--;
    idleCompilerThreads();
  }
};
