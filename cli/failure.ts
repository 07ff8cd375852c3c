/**
 * How a command fails: the one line (and exit code) any failure becomes, by the failure table
 * (src/failures.ts). Light on purpose: the program loads it for every command line, `feedbase version` included.
 */
import { failureOf } from "../src/failures.ts";
import type { Io } from "./io.ts";

export { CliFailure, UsageError } from "../src/domain/errors.ts";

/**
 * The one line and the exit code of a failed command (docs/decisions.md#command-line): bad usage is 2,
 * a refused action 1; an unexpected failure shows its stack, as a bug report needs it.
 * @example return reportFailure(error, io) // 1
 */
export function reportFailure(error: unknown, io: Io): number {
  const failure = failureOf(error);
  const message = failure === null ? `unexpected failure: ${String((error as Error)?.stack ?? error)}` : (failure.line?.(error as Error) ?? (error as Error).message);
  io.err(`error: ${message}\n`);
  return failure?.exit ?? 1;
}
