/**
 * The rounded optimum of a confidence solve (docs/decisions.md#optimizing-to-a-confidence-level): the
 * 0.0001 % grid mix of rounding.ts, which keeps every linear limit exactly, that also keeps every chance
 * limit: its cheapest rounding when that does; else its rounding without the search (plain rounding, or
 * the LP pulled in). When that misses one too, the final linear approximation is solved again with its
 * cuts pulled inward by twice the largest miss (as rounding.ts pulls in linear limits), doubling while
 * one is missed; should that not do, the whole confidence problem is solved again with the chance
 * limits moved inward.
 */
import type { Highs } from "highs";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import type { LeastCostProblem } from "./model.ts";
import { solveLp } from "./lp.ts";
import { roundedMix } from "./rounding.ts";
import { lpOf } from "./solve.ts";
import { shortfall, type ChanceLimit } from "./chance-model.ts";
import { solveChance, type ChanceOutcome } from "./chance-solve.ts";

/** Past the first try, roundings without rounding.ts's search for the cheapest (see chanceRounded). */
const NEAREST = { cheapest: false };
/** Re-solves with a margin: the first is an eighth of the most rounding can move a limit, each further one doubles it. */
const MARGIN_TRIES = 6;
/** Re-solves of the final approximation with its cuts pulled in. */
const PULLS = 6;

/** A grid mix keeps a chance limit when it misses it by no more than this, relative to the limit (float noise, far inside the solve's 1e-6). */
const KEPT = 1e-9;
const kept = (c: ChanceLimit, z: number, units: Int32Array) => shortfall(c, z, percentsOf(units)) <= KEPT * Math.max(1, Math.abs(c.limit));

const percentsOf = (units: Int32Array) => Float64Array.from(units, (u) => u / UNITS_PER_PERCENT);

/**
 * Grid units (1e-4 %) of the rounded optimum and the solve it rounds (`solved`, or a re-solve with margins).
 * @example chanceRounded(highs, problem, limits, z, solved).units.reduce((a, b) => a + b) // 1_000_000
 */
export function chanceRounded(highs: Highs, problem: LeastCostProblem, limits: readonly ChanceLimit[], z: number, solved: Solved): { units: Int32Array; solved: Solved } {
  const keeps = (units: Int32Array) => limits.every((c) => kept(c, z, units));
  const cheapest = roundedMix(highs, solved.problem, solved.solution.x);
  if (keeps(cheapest)) return { units: cheapest, solved };
  // The cheapest rounding of the linear approximation sits on its cuts, tangents to the chance limits,
  // where the curve is missed by a hair; pulling the cuts in after it cost up to 4.5e-4 of the optimum
  // (confidence-proofs, against 1e-4 allowed), so past it the former rounding.
  const units = roundedMix(highs, solved.problem, solved.solution.x, NEAREST);
  if (keeps(units)) return { units, solved };
  return pulledCuts(highs, problem.rows.length, limits, z, solved, units) ?? resolved(highs, problem, limits, z, solved, keeps);
}

type Solved = ChanceOutcome & { status: "optimal" };

/**
 * The final approximation solved again with every cut (the rows after the first `fixed`) pulled inward
 * by twice the most the rounded mix misses a chance limit by, doubling while one is still missed: near
 * the optimum the cuts are tangents, so a cut moved in by m moves its limit's level in by about m.
 * Every cut moves, not only the missed limits' (the optimum would move to a vertex where others are
 * missed instead). One LP per try.
 */
function pulledCuts(highs: Highs, fixed: number, limits: readonly ChanceLimit[], z: number, solved: Solved, first: Int32Array): { units: Int32Array; solved: Solved } | null {
  const { rows } = solved.problem;
  let margin = 2 * Math.max(...limits.map((c) => shortfall(c, z, percentsOf(first))));
  for (let attempt = 0; attempt < PULLS; attempt++, margin *= 2) {
    const pulled = {
      ...solved.problem,
      rows: rows.map((row, r) => (r < fixed ? row : { ...row, lower: row.lower + (Number.isFinite(row.lower) ? margin : 0), upper: row.upper - (Number.isFinite(row.upper) ? margin : 0) })),
    };
    const solution = solveLp(highs, lpOf(pulled), { ranging: false });
    if (solution.status === "infeasible") return null;
    const units = roundedMix(highs, pulled, solution.x, NEAREST);
    if (limits.every((c) => kept(c, z, units))) return { units, solved: { ...solved, problem: pulled, solution } };
  }
  return null;
}

/** The last resort: the confidence problem itself solved with its chance limits moved inward, doubling; else the mix missing fewest. */
function resolved(highs: Highs, problem: LeastCostProblem, limits: readonly ChanceLimit[], z: number, solved: Solved, keeps: (units: Int32Array) => boolean): { units: Int32Array; solved: Solved } {
  // The most one grid unit on every candidate moves mean ∓ z·sd: Σ (|value| + z·sd) × 0.0001 %.
  const reach = limits.map((c) => c.mean.reduce((s, m, j) => s + (Math.abs(m) + z * Math.sqrt(c.variance[j]!)) / UNITS_PER_PERCENT, 0));
  const missedBy = (units: Int32Array) => limits.filter((c) => !kept(c, z, units)).length;
  const first = roundedMix(highs, solved.problem, solved.solution.x, NEAREST);
  let best = { units: first, solved, missed: missedBy(first) };
  for (let attempt = 0; attempt < MARGIN_TRIES; attempt++) {
    const margins = reach.map((r) => (r * 2 ** attempt) / 8);
    const again = solveChance(highs, problem, limits, z, { margins, seeds: [solved.solution.x] });
    if (again.status === "infeasible") break;
    const units = roundedMix(highs, again.problem, again.solution.x, NEAREST);
    if (keeps(units)) return { units, solved: again };
    const missed = missedBy(units);
    if (missed < best.missed) best = { units, solved: again, missed };
  }
  return { units: best.units, solved: best.solved };
}
