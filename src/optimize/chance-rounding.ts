/**
 * The rounded optimum of a confidence solve (docs/decisions.md#optimizing-to-a-confidence-level): the
 * 0.0001 % grid mix of rounding.ts, which keeps every linear limit exactly, that also keeps every chance
 * limit. When plain rounding misses one, the final linear approximation is solved again with the cuts
 * of the missed limits pulled inward by what rounding missed them by (as rounding.ts pulls in linear
 * limits), growing while missed; should that not do, the whole confidence problem is solved again with
 * the chance limits moved inward.
 */
import type { Highs } from "highs";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import type { LeastCostProblem, Row } from "./model.ts";
import { solveLp } from "./lp.ts";
import { roundedMix } from "./rounding.ts";
import { lpOf } from "./solve.ts";
import { shortfall, type ChanceLimit } from "./chance-model.ts";
import { solveChance, type ChanceOutcome } from "./chance-solve.ts";

/** Re-solves with a margin: the first is an eighth of the most rounding can move a limit, each further one doubles it. */
const MARGIN_TRIES = 6;
/** Re-solves of the final approximation with the missed limits' cuts pulled in. */
const PULLS = 8;

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
  const units = roundedMix(highs, solved.problem, solved.solution.x);
  if (keeps(units)) return { units, solved };
  return pulledCuts(highs, problem.rows.length, limits, z, solved, units) ?? resolved(highs, problem, limits, z, solved, keeps);
}

type Solved = ChanceOutcome & { status: "optimal" };

/**
 * The final approximation solved again with the cuts of each missed chance limit (the rows after the
 * first `fixed`) pulled inward by twice what the rounded mix misses it by, growing while it is still
 * missed: near the optimum the cuts are tangents, so a cut moved in by m moves the limit's level in by
 * about m, and only the limits rounding broke pay for it. One LP per try.
 */
function pulledCuts(highs: Highs, fixed: number, limits: readonly ChanceLimit[], z: number, solved: Solved, first: Int32Array): { units: Int32Array; solved: Solved } | null {
  const { rows } = solved.problem;
  const sideOf = (row: Row) => (row.limit?.kind === "nutrient" ? `${row.limit.min === null ? "max" : "min"} ${row.limit.key}` : "");
  const margins = new Map(limits.map((c) => [`${c.side} ${c.key}`, 0]));
  let units = first;
  for (let attempt = 0; attempt < PULLS; attempt++) {
    for (const c of limits) {
      const missed = shortfall(c, z, percentsOf(units));
      const id = `${c.side} ${c.key}`;
      if (missed > -KEPT * Math.max(1, Math.abs(c.limit))) margins.set(id, 2 * margins.get(id)! + 2 * Math.max(missed, 0) + KEPT * Math.max(1, Math.abs(c.limit)));
    }
    const pulled = {
      ...solved.problem,
      rows: rows.map((row, r) => {
        const m = r < fixed ? 0 : margins.get(sideOf(row)) ?? 0;
        return m === 0 ? row : { ...row, lower: row.lower + (Number.isFinite(row.lower) ? m : 0), upper: row.upper - (Number.isFinite(row.upper) ? m : 0) };
      }),
    };
    const solution = solveLp(highs, lpOf(pulled), { ranging: false });
    if (solution.status === "infeasible") return null;
    units = roundedMix(highs, pulled, solution.x);
    if (limits.every((c) => kept(c, z, units))) return { units, solved: { ...solved, problem: pulled, solution } };
  }
  return null;
}

/** The last resort: the confidence problem itself solved with its chance limits moved inward, doubling; else the mix missing fewest. */
function resolved(highs: Highs, problem: LeastCostProblem, limits: readonly ChanceLimit[], z: number, solved: Solved, keeps: (units: Int32Array) => boolean): { units: Int32Array; solved: Solved } {
  // The most one grid unit on every candidate moves mean ∓ z·sd: Σ (|value| + z·sd) × 0.0001 %.
  const reach = limits.map((c) => c.mean.reduce((s, m, j) => s + (Math.abs(m) + z * Math.sqrt(c.variance[j]!)) / UNITS_PER_PERCENT, 0));
  const missedBy = (units: Int32Array) => limits.filter((c) => !kept(c, z, units)).length;
  const first = roundedMix(highs, solved.problem, solved.solution.x);
  let best = { units: first, solved, missed: missedBy(first) };
  for (let attempt = 0; attempt < MARGIN_TRIES; attempt++) {
    const margins = reach.map((r) => (r * 2 ** attempt) / 8);
    const again = solveChance(highs, problem, limits, z, { margins, seeds: [solved.solution.x] });
    if (again.status === "infeasible") break;
    const units = roundedMix(highs, again.problem, again.solution.x);
    if (keeps(units)) return { units, solved: again };
    const missed = missedBy(units);
    if (missed < best.missed) best = { units, solved: again, missed };
  }
  return { units: best.units, solved: best.solved };
}
