/**
 * Production plans for the proofs: seeded plans of random formulas (test/helpers/lp-problems.ts) whose
 * candidates share names (I0, I1, ...) across lines, so supply rows couple them; and the plan's LP as one
 * dense program for GLPK, built here apart from src/optimize/plan-lp.ts's sparse model.
 */
import type { DenseLp } from "../../src/optimize/lp.ts";
import { buildProblem } from "../../src/optimize/model.ts";
import type { PlanLine, SupplyRow } from "../../src/optimize/plan-lp.ts";
import { randomFormula } from "./lp-problems.ts";
import { seeded } from "./random.ts";

export type PlanKind = "no supply" | "max" | "min" | "both" | "impossible";
export const PLAN_KINDS: PlanKind[] = ["no supply", "max", "min", "both", "impossible"];

/** A plan of 1 to 4 random formulas; `usage` (tons per name at the uncoupled optimum) places the supply rows. */
export function randomPlan(seed: number, kind: PlanKind, usageOf: (lines: PlanLine[]) => Map<string, number>): { lines: PlanLine[]; supply: SupplyRow[] } {
  const rnd = seeded(seed * 7919);
  const count = 1 + Math.floor(rnd() * 4);
  const lines: PlanLine[] = Array.from({ length: count }, (_, k) => {
    const f = randomFormula(seed * 10 + k);
    return { tons: Math.round(100 + rnd() * 2900), problem: buildProblem(f.candidates, f.constraints) };
  });
  if (kind === "no supply") return { lines, supply: [] };
  const usage = [...usageOf(lines)].filter(([, tons]) => tons > 1).sort(([a], [b]) => (a < b ? -1 : 1));
  const total = lines.reduce((s, l) => s + l.tons, 0);
  if (kind === "impossible" || usage.length === 0) return { lines, supply: [{ name: "I0", minTons: total * 2, maxTons: null }] };
  const [name, tons] = usage[Math.floor(rnd() * usage.length)]!;
  if (kind === "max") return { lines, supply: [{ name, minTons: null, maxTons: Math.round(tons * (0.5 + rnd() * 0.4)) }] };
  const unused = lines.flatMap((l) => l.problem.candidates.filter((c) => !c.held).map((c) => c.name)).find((n) => !usageOf(lines).has(n) || usageOf(lines).get(n)! < 1);
  const min = { name: unused ?? name, minTons: Math.round(total * (0.02 + rnd() * 0.1)), maxTons: null };
  if (kind === "min") return { lines, supply: [min] };
  return { lines, supply: [...(min.name === name ? [] : [min]), { name, minTons: Math.round(tons * 0.3), maxTons: Math.round(tons * (0.6 + rnd() * 0.3)) }] };
}

/** The plan as one dense LP: columns line by line, each line's rows, then one row per supply. */
export function denseplan(lines: readonly PlanLine[], supply: readonly SupplyRow[]): DenseLp {
  const width = lines.reduce((n, l) => n + l.problem.candidates.length, 0);
  const cost: number[] = [];
  const colUpper: number[] = [];
  const rows: DenseLp["rows"][number][] = [];
  let offset = 0;
  for (const line of lines) {
    for (const c of line.problem.candidates) {
      cost.push((line.tons * c.price) / 100);
      colUpper.push(c.held ? 0 : Infinity);
    }
    for (const row of line.problem.rows) {
      const coefficients = new Float64Array(width);
      coefficients.set(row.coefficients, offset);
      rows.push({ coefficients, lower: row.lower, upper: row.upper });
    }
    offset += line.problem.candidates.length;
  }
  for (const s of supply) {
    const coefficients = new Float64Array(width);
    let at = 0;
    for (const line of lines) {
      line.problem.candidates.forEach((c, j) => {
        if (c.name === s.name) coefficients[at + j] = line.tons / 100;
      });
      at += line.problem.candidates.length;
    }
    rows.push({ coefficients, lower: s.minTons ?? -Infinity, upper: s.maxTons ?? Infinity });
  }
  return { cost, colLower: new Float64Array(width), colUpper, rows };
}
