/** The messages between the solver pool (./pool.ts) and its workers (./pool-worker.ts). */

/** One task for a worker. */
export interface ToWorker {
  id: number;
  kind: string;
  input: unknown;
}

export type FromWorker =
  /** HiGHS is loaded: the worker takes tasks. */
  | { type: "ready"; version: string; wasm: string }
  /** HiGHS could not be loaded. */
  | { type: "broken"; message: string }
  | { type: "done"; id: number; output: unknown }
  /** `cause`: the input broke a rule (400), HiGHS gave up (422, the worker is replaced), or a bug (500). */
  | { type: "failed"; id: number; cause: "input" | "solver" | "bug"; message: string; stack: string };
