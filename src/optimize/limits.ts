/**
 * The largest problem one solve takes (docs/decisions.md#solver-pool), checked before any solve and
 * refused with a 400 naming the limit: the time limit stops a slow solve, these keep a solve's memory
 * bounded (the dense rows and HiGHS's own memory grow with candidates × rows).
 */
import { ValidationError } from "../domain/errors.ts";

export const SOLVE_LIMITS = {
  /** Candidate ingredients of one formula: composition, inclusion-limit names and `include`. */
  candidates: 500,
  /** Nutrient and inclusion limits with a bound. */
  limits: 1000,
  /** Ratio limits. */
  ratios: 200,
  /** Plan lines × candidates of one production plan (a hook for plans: one column per line and candidate). */
  planCells: 50_000,
} as const;

export interface ProblemSize {
  candidates: number;
  limits: number;
  ratios: number;
  /** Lines of a production plan (omitted for one formula). */
  planLines?: number;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Refuses a problem over any limit, naming it.
 * @example checkSolveSize({ candidates: 2500, limits: 10, ratios: 0 }) // throws "Too many candidates for one solve: 2,500 (at most 500)"
 */
export function checkSolveSize(size: ProblemSize): void {
  const over = (what: string, n: number, max: number) => {
    if (n > max) throw new ValidationError(`Too many ${what} for one solve: ${count(n)} (at most ${count(max)})`);
  };
  over("candidates", size.candidates, SOLVE_LIMITS.candidates);
  over("limits", size.limits, SOLVE_LIMITS.limits);
  over("ratio limits", size.ratios, SOLVE_LIMITS.ratios);
  if (size.planLines !== undefined) over("plan lines × candidates", size.planLines * size.candidates, SOLVE_LIMITS.planCells);
}
