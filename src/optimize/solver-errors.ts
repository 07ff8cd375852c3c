import { ValidationError } from "../domain/errors.ts";

/**
 * How a solve can fail without a bug of feedbase (docs/decisions.md#solver-pool); src/failures.ts
 * gives each its status, and the CLI prints the message.
 */

export const TIME_LIMIT_EXCEEDED = "Solver time limit exceeded";
export const QUEUE_FULL = "Solver busy: too many solves waiting";

/**
 * The solve did not happen or did not finish in time (503 with Retry-After): its time limit passed
 * (the worker was replaced), or the queue was full. The same request may succeed later.
 * @example throw new SolverUnavailable(TIME_LIMIT_EXCEEDED, 5)
 */
export class SolverUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * HiGHS gave up on the problem (an abort, or a status other than optimal or infeasible): the input made
 * a problem it cannot take (422), and the worker that met it was replaced.
 * @example throw new SolverFailure("The solver could not solve this problem: HiGHS aborted")
 */
export class SolverFailure extends Error {}

/** The words of a SolverFailure for what HiGHS threw. @example solverProblem(new WebAssembly.RuntimeError("Aborted()")) */
export const solverProblem = (message: string) => `The solver could not solve this problem (${message})`;

/**
 * Why a task threw: the caller's input broke a rule (400), HiGHS gave up (an abort of the
 * WebAssembly, or a status it should not end with: 422), or anything else, a bug (500).
 * @example causeOf(new ValidationError("price must be ...")) // "input"
 */
export function causeOf(error: unknown): "input" | "solver" | "bug" {
  if (error instanceof ValidationError) return "input";
  if (error instanceof WebAssembly.RuntimeError || /HiGHS|Aborted/.test(String((error as Error)?.message ?? error))) return "solver";
  return "bug";
}
