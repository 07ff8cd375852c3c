/**
 * Every kind of solver work the pool runs (docs/decisions.md#solver-pool). A task is a pure function
 * `(highs, input) => output` whose input and output are plain data (they cross to a worker by
 * structured clone). Adding one is one line here: `kind: function`.
 */
import type { Highs } from "highs";
import { frontierTask } from "./frontier-task.ts";
import { batchSheetTask } from "./batch-task.ts";
import { confidenceTask } from "./chance-task.ts";
import { confidenceCurveTask } from "./confidence-curve.ts";
import { optimizeTask } from "./optimize-task.ts";
import { planTask } from "./plan-task.ts";
import { sweepTask } from "./sweep-task.ts";
import { solverRuntime } from "./runtime.ts";
import { causeOf, SolverFailure, solverProblem } from "./solver-errors.ts";

export const TASKS = {
  optimize: optimizeTask,
  frontier: frontierTask,
  sweep: sweepTask,
  batchSheet: batchSheetTask,
  plan: planTask,
  confidence: confidenceTask,
  confidenceCurve: confidenceCurveTask,
} satisfies Record<string, (highs: Highs, input: never) => unknown>;

export type TaskKind = keyof typeof TASKS;
export type TaskInput<K extends TaskKind> = Parameters<(typeof TASKS)[K]>[1];
export type TaskOutput<K extends TaskKind> = ReturnType<(typeof TASKS)[K]>;

/** Runs a task somewhere (a worker of the pool, or this process) and resolves to its output. */
export type Solve = <K extends TaskKind>(kind: K, input: TaskInput<K>) => Promise<TaskOutput<K>>;

/**
 * The task `kind` on this thread's HiGHS.
 * @example runTask(highs, "optimize", input).status // "optimal"
 */
export function runTask<K extends TaskKind>(highs: Highs, kind: K, input: TaskInput<K>): TaskOutput<K> {
  if (!Object.hasOwn(TASKS, kind)) throw new Error(`Unknown solver task: ${String(kind)}`);
  return (TASKS[kind] as (highs: Highs, input: TaskInput<K>) => TaskOutput<K>)(highs, input);
}

/**
 * Tasks on this process's own HiGHS: for the CLI, whose one command is the only work there is.
 * @example const result = await solveInProcess("optimize", input)
 */
export const solveInProcess: Solve = async (kind, input) => {
  const highs = await solverRuntime();
  try {
    return runTask(highs, kind, input);
  } catch (error) {
    throw causeOf(error) === "solver" ? new SolverFailure(solverProblem((error as Error).message)) : error;
  }
};
