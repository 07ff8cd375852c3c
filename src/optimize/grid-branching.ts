/**
 * How a batch sheet's branch and bound (grid-branch.ts) chooses: the column to branch on (reliability
 * branching on pseudocosts) and the next node (least bound first).
 */
import { dualSimplex, type DenseBoxLp, type DualOutcome } from "./bounded-dual.ts";
import { child, lagrangian, type Bound, type Node } from "./grid-node.ts";

/** A column within this of a whole number is taken as whole (the exact rows judge the point). */
const WHOLE = 1e-6;

/**
 * Reliability branching: a column's pseudocosts (bound rise per unit moved, down and up) are learnt by
 * solving both children (strong branching) until each side has been seen RELIABLE times, then trusted;
 * the column with the largest product of the two expected rises is branched on.
 */
const RELIABLE = 4;

export class Pseudocosts {
  /** LPs solved here (strong branching), counted in the search's work. */
  solves = 0;
  private sum: Float64Array;
  private seen: Int32Array;
  constructor(m: number) {
    this.sum = new Float64Array(2 * m);
    this.seen = new Int32Array(2 * m);
  }
  learn(origin: NonNullable<Node["origin"]>, value: number) {
    const at = 2 * origin.j + (origin.up ? 1 : 0);
    this.sum[at]! += Math.max(0, value - origin.parent) / origin.moved;
    this.seen[at]! += 1;
  }
  private expected(at: number): number {
    if (this.seen[at]! > 0) return this.sum[at]! / this.seen[at]!;
    let sum = 0;
    let seen = 0;
    for (let i = 0; i < this.sum.length; i++) if (this.seen[i]! > 0) (sum += this.sum[i]! / this.seen[i]!), seen++;
    return seen === 0 ? 1 : sum / seen;
  }
  /** The two children of the column chosen (a side left empty by the box is left out); null when every column is whole. */
  branch(lp: DenseBoxLp, node: Node, solved: Extract<DualOutcome, { status: "optimal" }>, bound: Bound): Node[] | null {
    const { x, basis } = solved;
    const value = bound.value;
    const floor = bound.value - bound.margin;
    let chosen: Node[] | null = null;
    let score = -1;
    for (let j = 0; j < lp.m; j++) {
      const v = x[j]!;
      if (Math.abs(v - Math.round(v)) <= WHOLE || node.lower[j]! >= node.upper[j]!) continue;
      const down = child(node, basis, floor, j, node.lower[j]!, Math.min(Math.floor(v), node.upper[j]!));
      const up = child(node, basis, floor, j, Math.max(Math.ceil(v), node.lower[j]!), node.upper[j]!);
      down.origin = { j, up: false, moved: v - Math.floor(v), parent: value };
      up.origin = { j, up: true, moved: Math.ceil(v) - v, parent: value };
      const sides = [down, up].filter((c) => c.lower[j]! <= c.upper[j]!);
      const rises = [down, up].map((c) => {
        const at = 2 * j + (c.origin!.up ? 1 : 0);
        if (c.lower[j]! > c.upper[j]!) return Infinity;
        if (this.seen[at]! >= RELIABLE) return this.expected(at) * c.origin!.moved;
        c.solved = dualSimplex(lp, c.lower, c.upper, basis);
        this.solves++;
        if (c.solved.status === "infeasible") return Infinity;
        if (c.solved.status === "trouble") {
          c.solved = undefined; // solved again when its turn comes
          return 0;
        }
        const b = lagrangian(lp, c, c.solved.y);
        this.learn(c.origin!, b.value);
        c.floor = b.value - b.margin;
        return Math.max(0, b.value - value);
      });
      const s = Math.min(rises[0]!, 1e300) * Math.min(rises[1]!, 1e300) + 1e-9 * Math.max(0, ...rises.map((r) => Math.min(r, 1e300)));
      if (s > score) [chosen, score] = [sides, s];
    }
    return chosen;
  }
}

/** Nodes by their floor, least first (ties: the last pushed first, so a plunge continues). */
export class NodeHeap {
  private items: { node: Node; order: number }[] = [];
  private count = 0;
  get size() {
    return this.items.length;
  }
  push(...nodes: Node[]) {
    for (const node of nodes) {
      const items = this.items;
      items.push({ node, order: this.count++ });
      for (let i = items.length - 1; i > 0; ) {
        const up = (i - 1) >> 1;
        if (!this.before(items[i]!, items[up]!)) break;
        [items[i], items[up]] = [items[up]!, items[i]!];
        i = up;
      }
    }
  }
  pop(): Node | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.before(items[l]!, items[m]!)) m = l;
        if (r < items.length && this.before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top?.node;
  }
  private before(a: { node: Node; order: number }, b: { node: Node; order: number }) {
    return a.node.floor < b.node.floor || (a.node.floor === b.node.floor && a.order > b.order);
  }
}
