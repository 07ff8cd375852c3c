/** The messages between the solver pool (./pool.ts) and its workers (./pool-worker.ts). */

/**
 * The nice value of a worker's thread on Linux: the lowest priority, so a solve takes only the CPU the
 * event loop leaves (docs/decisions.md#solver-pool).
 */
export const WORKER_NICE = 19;

export type ToWorker =
  /**
   * First, once: HiGHS compiled by an earlier worker, to instantiate; null: compile it here (./runtime.ts)
   * and send it back with "ready".
   */
  | { type: "module"; module: WebAssembly.Module | null }
  | TaskMessage;

/** One task for a worker. */
export interface TaskMessage {
  type: "task";
  id: number;
  kind: string;
  input: unknown;
  /** The input's bulk as JSON text, kept by the caller across requests; `input` is laid over it. Null: `input` is all. */
  base: string | null;
  /** Answer with the output's JSON text (what an HTTP answer is made of) rather than the output. */
  json: boolean;
}

export type FromWorker =
  /** HiGHS is loaded: the worker takes tasks. `nice`: its thread's nice value, or why it kept the event loop's; `idle`: its thread is SCHED_IDLE; `compilers`: how many of JavaScriptCore's compiler threads are; `module`: what it compiled, when it was asked to. */
  | { type: "ready"; version: string; wasm: string; nice: number | string; idle: boolean; compilers: number; module: WebAssembly.Module | null }
  /** HiGHS could not be loaded. */
  | { type: "broken"; message: string }
  /** `output`: the task's output, or its JSON text when the task asked for `json`. */
  | { type: "done"; id: number; output: unknown }
  /** `cause`: the input broke a rule (400), HiGHS gave up (422, the worker is replaced), or a bug (500). */
  | { type: "failed"; id: number; cause: "input" | "solver" | "bug"; message: string; stack: string };
