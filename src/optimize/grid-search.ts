/**
 * A small integer program solved by branch and bound over LP relaxations (lp.ts): the rounding of an
 * optimum onto the 0.0001 % grid. HiGHS has a MIP solver, but its WebAssembly build spends about
 * 100 ms setting up each run, even for two variables, while this program needs a handful of LP
 * relaxations of a fraction of a millisecond each. Depth first, the nearer child first; a node whose
 * relaxation costs more than the best mix found is cut. Among mixes of the same exact cost the caller's
 * order chooses, so ties are settled the same way every time.
 */
import type { Highs } from "highs";
import { solveLp, type DenseLp } from "./lp.ts";

export interface GridProgram {
  /** Minimise cost · v over integers colLower ≤ v ≤ colUpper meeting the rows. */
  lp: DenseLp;
  /** Whether an integer point is acceptable (the exact check of the limits). */
  accept(v: number[]): boolean;
  /** The exact cost of an integer point, compared with === (it must be exact, not a float sum). */
  cost(v: number[]): number;
  /** Ties of exact cost: negative when a is preferred. */
  tieBreak(a: number[], b: number[]): number;
}

/** Relaxations solved at most; past it the best point found stands (the same one every time: the search is deterministic). */
const NODE_LIMIT = 200;
const INTEGRAL = 1e-6;

/**
 * The cheapest acceptable integer point, or null when none is found.
 * @example gridSearch(highs, { lp, accept: () => true, cost: (v) => v[0]! * 3, tieBreak: () => 0 }) // [4, 0]
 */
export function gridSearch(highs: Highs, program: GridProgram): number[] | null {
  const { lp } = program;
  let best: { v: number[]; cost: number } | null = null;
  const stack: { lower: number[]; upper: number[] }[] = [{ lower: Array.from(lp.colLower), upper: Array.from(lp.colUpper) }];
  for (let nodes = 0; stack.length > 0 && nodes < NODE_LIMIT; nodes++) {
    const node = stack.pop()!;
    const relaxed = solveLp(highs, { ...lp, colLower: node.lower, colUpper: node.upper }, { ranging: false });
    if (relaxed.status === "infeasible") continue;
    // Cut only what is surely dearer: an equal cost may still win the tie.
    if (best !== null && relaxed.objective > best.cost + 1e-12 * Math.max(1, Math.abs(best.cost))) continue;
    const x = Array.from(relaxed.x.subarray(0, node.lower.length));
    let branch = -1;
    let farthest = INTEGRAL;
    x.forEach((v, k) => {
      const off = Math.abs(v - Math.round(v));
      if (off > farthest) [branch, farthest] = [k, off];
    });
    if (branch === -1) {
      const v = x.map(Math.round);
      if (!program.accept(v)) continue;
      const cost = program.cost(v);
      if (best === null || cost < best.cost || (cost === best.cost && program.tieBreak(v, best.v) < 0)) best = { v, cost };
      continue;
    }
    const value = x[branch]!;
    const down = { lower: node.lower, upper: node.upper.map((u, k) => (k === branch ? Math.max(node.lower[k]!, Math.floor(value)) : u)) };
    const up = { lower: node.lower.map((l, k) => (k === branch ? Math.min(node.upper[k]!, Math.ceil(value)) : l)), upper: node.upper };
    // The stack pops the last pushed first: the child on the side the relaxation leans to.
    if (value - Math.floor(value) < 0.5) stack.push(up, down);
    else stack.push(down, up);
  }
  return best?.v ?? null;
}
