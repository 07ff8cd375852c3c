/**
 * The cheapest whole steps of a batch sheet by our own branch and bound (docs/decisions.md#batch-sheets),
 * node LPs on bounded-dual.ts. It keeps every point of the least cost, not one: a node is cut only
 * when its bound is above the best cost found, so the ties (least Σ |deviation|, then by name) are
 * settled among all the cheapest points without further solves. What it concludes is proven without
 * trusting the LP's tolerances:
 * - a bound is the Lagrangian one of the node's duals over its box, recomputed here (any duals give a
 *   valid bound), with a margin for rounding; costs are whole numbers on whole steps;
 * - a node whose LP point is whole (checked on the exact rows) holds no other point as cheap when
 *   every nonbasic variable's reduced cost is above what the point costs over the bound: any other
 *   point moves some nonbasic variable by at least one unit (a step, or one unit of an integer row);
 *   otherwise the node is split around the point on one variable;
 * - a node is infeasible only when a combination of its rows cannot reach 0 over its box.
 * Anything else (a singular basis, too many iterations, too many nodes) returns null, and the caller
 * solves with HiGHS instead.
 */
import { dualSimplex, slackBasis } from "./bounded-dual.ts";
import { NodeHeap, Pseudocosts } from "./grid-branching.ts";
import { child, denseRows, lagrangian, tighten, unreachable, type Node } from "./grid-node.ts";
import { gridActivity, missedBounds, type GridRow } from "./grid-rows.ts";

export interface GridProblem {
  rows: readonly GridRow[];
  /** Per line: whole cost units per step, steps at most, step and exact amount in units of 10^-scale kg. */
  cost: readonly bigint[];
  most: readonly bigint[];
  steps: readonly bigint[];
  exact: readonly bigint[];
  /** Line indices in name order: among equal cost and deviation, the first gets more. */
  nameOrder: readonly number[];
}

export type GridAnswer = { status: "optimal"; n: bigint[] } | { status: "infeasible" };

/**
 * Past this many nodes, or this much work (an LP rebuilds a k × (m + k) tableau: k²(m + k) multiply-adds),
 * the search gives up and the caller falls back to HiGHS. The bench's 25-line sheet takes ~1,600 nodes
 * and 8e6; a formula with hundreds of limits stops at its first few LPs instead of spending minutes.
 */
const NODE_LIMIT = 20_000;
const WORK_LIMIT = 2e8;

/**
 * @example branchGrid({ rows, cost: [228n, 455n], most: [20n, 20n], steps: [5n, 5n], exact: [43n, 57n], nameOrder: [0, 1] }) // { status: "optimal", n: [9n, 11n] }
 */
export function branchGrid(p: GridProblem): GridAnswer | null {
  const lp = denseRows(p);
  if (lp === "infeasible") return { status: "infeasible" };
  const { m, k } = lp;
  // One node's LP and its strong branching (two LPs a column) must fit in the work at least once.
  const perLp = k * k * (m + k);
  if (perLp * (1 + 2 * m) > WORK_LIMIT) return null;
  let best: bigint | null = null;
  let cheapest: bigint[][] = [];
  const stack = new NodeHeap();
  const costs = new Pseudocosts(m);
  stack.push({ floor: -Infinity, lower: new Float64Array(m), upper: Float64Array.from(p.most, Number), basis: slackBasis(lp) });
  for (let nodes = 0; stack.size > 0; nodes++) {
    if (nodes === NODE_LIMIT || (nodes + costs.solves + 1) * perLp > WORK_LIMIT) return null;
    const node = stack.pop()!;
    if (best !== null && node.floor > Number(best)) break; // every node left is dearer
    const solved = node.solved ?? dualSimplex(lp, node.lower, node.upper, node.basis);
    if (solved.status === "trouble") return null;
    if (solved.status === "infeasible") {
      if (!unreachable(lp, node, solved.u)) return null;
      continue;
    }
    const { x, basis } = solved;
    const bound = lagrangian(lp, node, solved.y);
    if (node.origin && !node.solved) costs.learn(node.origin, bound.value);
    if (best !== null && bound.value > Number(best) + bound.margin) continue;
    if (best !== null) tighten(lp, node, bound, Number(best) - bound.value + bound.margin);
    const children = costs.branch(lp, node, solved, bound);
    if (children !== null) {
      stack.push(...children);
      continue;
    }
    const n = Array.from({ length: m }, (_, j) => BigInt(Math.round(x[j]!)));
    const whole = n.every((v, j) => v >= BigInt(node.lower[j]!) && v <= BigInt(node.upper[j]!)) && p.rows.every((row) => missedBounds(row, n).length === 0);
    let room = Infinity;
    if (whole) {
      const c = gridActivity({ limit: null, coefficients: [...p.cost], lower: null, upper: null }, n);
      if (best === null || c < best) [best, cheapest] = [c, [n]];
      else if (c === best && !cheapest.some((o) => o.every((v, j) => v === n[j]))) cheapest.push(n);
      room = Number(best) - bound.value + bound.margin;
    }
    // The only point this cheap in the node when no nonbasic variable can move one unit within `room`.
    let split = -1;
    let weakest = Infinity;
    let alone = true;
    for (let j = 0; j < m + k; j++) {
      const fixed = j < m ? node.lower[j] === node.upper[j] : lp.rowLower[j - m] === lp.rowUpper[j - m];
      if (basis.at[j] === 0 || fixed || Math.abs(bound.reduced[j]!) * (j < m ? 1 : lp.unit[j - m]!) > room) continue;
      alone = false;
      if (j < m && Math.abs(bound.reduced[j]!) < weakest) [split, weakest] = [j, Math.abs(bound.reduced[j]!)];
    }
    if (alone) continue;
    if (split === -1) split = widest(node);
    if (split === -1) continue; // a box of one point
    const v = Math.min(node.upper[split]!, Math.max(node.lower[split]!, Math.round(x[split]!)));
    if (v + 1 <= node.upper[split]!) stack.push(child(node, basis, bound.value - bound.margin, split, v + 1, node.upper[split]!));
    if (v - 1 >= node.lower[split]!) stack.push(child(node, basis, bound.value - bound.margin, split, node.lower[split]!, v - 1));
    stack.push(child(node, basis, bound.value - bound.margin, split, v, v));
  }
  if (best === null) return { status: "infeasible" };
  return { status: "optimal", n: cheapest.reduce((a, b) => (preferred(p, b, a) ? b : a)) };
}

/** The same cost: the least Σ |deviation|, then the larger amount for the name that sorts first. */
function preferred(p: GridProblem, a: readonly bigint[], b: readonly bigint[]): boolean {
  const deviation = (n: readonly bigint[]) => n.reduce((sum, v, i) => {
    const d = p.steps[i]! * v - p.exact[i]!;
    return sum + (d < 0n ? -d : d);
  }, 0n);
  const da = deviation(a);
  const db = deviation(b);
  if (da !== db) return da < db;
  for (const j of p.nameOrder) if (a[j] !== b[j]) return a[j]! > b[j]!;
  return false;
}

function widest(node: Node): number {
  let j = -1;
  for (let i = 0; i < node.lower.length; i++) if (node.upper[i]! - node.lower[i]! > (j === -1 ? 0 : node.upper[j]! - node.lower[j]!)) j = i;
  return j;
}

