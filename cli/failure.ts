/**
 * How a command fails: the two kinds of refusal and the one line (and exit code) any failure becomes.
 * Light on purpose: the program loads it for every command line, `feedbase version` included.
 */
import { InvalidArgumentError } from "commander";
import { ConflictError, NotFoundError, ValidationError } from "../src/domain/errors.ts";
import { DataFileError, isStorageFull } from "../src/store/db.ts";
import { SolverFailure } from "../src/optimize/solver-errors.ts";
import type { Io } from "./io.ts";

/** A refused action: one line on stderr, exit 1. @example throw new CliFailure("Webhook not found: wh_x") */
export class CliFailure extends Error {}
/** Bad usage (a bad option value): one line on stderr, exit 2. */
export class UsageError extends Error {}

/**
 * The one line and the exit code of a failed command (docs/decisions.md#command-line): bad usage is 2,
 * a refused action 1; an unexpected failure shows its stack, as a bug report needs it.
 * @example return reportFailure(error, io) // 1
 */
export function reportFailure(error: unknown, io: Io): number {
  const usage = error instanceof UsageError || error instanceof InvalidArgumentError;
  const known =
    usage ||
    error instanceof CliFailure ||
    error instanceof DataFileError ||
    error instanceof NotFoundError ||
    error instanceof ConflictError ||
    error instanceof ValidationError ||
    error instanceof SolverFailure;
  const message = known
    ? (error as Error).message
    : (error as Error | undefined)?.name === "PostgresError"
      ? // The database refused or the connection broke mid-command: its words, in one line (they never hold the URL).
        `PostgreSQL: ${(error as Error).message.replace(/\s+/g, " ")}${(error as { errno?: string }).errno ? ` (SQLSTATE ${(error as { errno?: string }).errno})` : ""}`
      : isStorageFull(error)
      ? "The data file's disk is full: nothing was written; free space and run the command again"
      : `unexpected failure: ${String((error as Error)?.stack ?? error)}`;
  io.err(`error: ${message}\n`);
  return usage ? 2 : 1;
}
