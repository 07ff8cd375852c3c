/**
 * What to relax when no plan meets every limit and supply (docs/decisions.md#production-plans): every
 * supply bound, and every nutrient or inclusion bound of a formula, that moved alone (everything else
 * kept) makes the plan feasible, with the value it must be moved to: the best its row reaches with that
 * bound dropped (one LP each, as for one formula); with a footprint cap, the cap too (the least average
 * footprint the plan reaches); a ratio bound, the best ratio its line reaches (plan-ratio.ts). Ordered by the relative move.
 */
import type { Highs } from "highs";
import { roundInward } from "./inward.ts";
import { planLayout, planModel, type PlanLine, type SupplyRow } from "./plan-lp.ts";
import { bestPlanRatio } from "./plan-ratio.ts";
import type { Limit } from "./model.ts";

export type PlanRepair =
  | { kind: "supply"; name: string; bound: "min" | "max"; limit: number; bestAchievable: number }
  | { kind: "limit"; line: number; limit: Limit; bound: "min" | "max"; value: number; bestAchievable: number }
  | { kind: "co2e"; bound: "max"; limit: number; bestAchievable: number };

/**
 * @example planRepairs(highs, lines, [{ name: "Corn DDGS", minTons: 900, maxTons: null }]) // [{ kind: "supply", name: "Corn DDGS", bound: "min", limit: 900, bestAchievable: 612.5 }]
 */
export function planRepairs(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], maxCo2e: number | null = null): PlanRepair[] {
  const repairs: (PlanRepair & { move: number })[] = [];
  const layout = planLayout(lines, supply, maxCo2e);
  const certified = certificateRows(highs, lines, supply, layout);
  const limitRows = lines.reduce((n, l) => n + l.problem.rows.length, 0);
  if (layout.co2e && (!certified || certified.has(limitRows + supply.length))) {
    const best = bestOf(highs, lines, supply, layout.co2e.entries, "max", null);
    if (best !== null) repairs.push({ kind: "co2e", bound: "max", limit: layout.co2e.max, bestAchievable: roundInward(best, 4, "up"), move: relativeMove(best, layout.co2e.max) });
  }
  supply.forEach((s, k) => {
    if (certified && !certified.has(limitRows + k)) return;
    for (const bound of ["min", "max"] as const) {
      const limit = bound === "min" ? s.minTons : s.maxTons;
      if (limit === null) continue;
      const dropped = supply.map((t, i) => (i === k ? { ...t, [bound === "min" ? "minTons" : "maxTons"]: null } : t));
      const best = bestOf(highs, lines, dropped, layout.supplyEntries[k]!, bound, maxCo2e);
      if (best === null) continue;
      repairs.push({ kind: "supply", name: s.name, bound, limit, bestAchievable: roundInward(best, 3, bound === "min" ? "down" : "up"), move: relativeMove(best, limit) });
    }
  });
  let at = 0;
  lines.forEach((line, f) => {
    const first = at;
    at += line.problem.rows.length;
    line.problem.rows.forEach((row, r) => {
      if (certified && !certified.has(first + r)) return;
      if (row.limit === null || row.limit.kind === "co2e") return;
      for (const bound of ["min", "max"] as const) {
        const value = bound === "min" ? row.lower : row.upper;
        if (!Number.isFinite(value)) continue;
        if (row.limit.kind === "ratio") {
          // A ratio's row is linear only at its limit: the best ratio reachable is its own program.
          const best = bestPlanRatio(highs, lines, supply, layout, f, r, bound);
          if (best !== null) repairs.push({ kind: "limit", line: f, limit: row.limit, bound, value: row.limit.limit, bestAchievable: roundInward(best, 4, bound === "min" ? "down" : "up"), move: relativeMove(best, row.limit.limit) });
          continue;
        }
        const rows = line.problem.rows.map((old, i) => (i === r ? { ...old, [bound === "min" ? "lower" : "upper"]: bound === "min" ? -Infinity : Infinity } : old));
        const changed = lines.map((l, i) => (i === f ? { ...l, problem: { ...l.problem, rows } } : l));
        const entries = [...row.coefficients].flatMap((a, j) => (a === 0 ? [] : [[layout.offsets[f]! + j, a] as [number, number]]));
        const best = bestOf(highs, changed, supply, entries, bound, maxCo2e);
        if (best === null) continue;
        repairs.push({ kind: "limit", line: f, limit: row.limit, bound, value, bestAchievable: roundInward(best, 4, bound === "min" ? "down" : "up"), move: relativeMove(best, value) });
      }
    });
  });
  return repairs.sort((a, b) => a.move - b.move).map(({ move: _, ...repair }) => repair);
}

const relativeMove = (best: number, limit: number) => Math.abs(best - limit) / Math.max(Math.abs(limit), 1);

/** The most (for a min) or least (for a max) the row `entries` reaches; null when the rest is infeasible too. */
function bestOf(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], entries: readonly [number, number][], bound: "min" | "max", maxCo2e: number | null): number | null {
  const layout = planLayout(lines, supply, maxCo2e);
  const model = planModel(highs, lines, supply, layout);
  try {
    const cost = new Float64Array(layout.width);
    for (const [col, a] of entries) cost[col] = bound === "min" ? -a : a;
    model.changeColsCost({ kind: "range", from: 0, to: layout.width - 1 }, cost);
    model.run();
    if (model.getModelStatus() !== highs.constants.modelStatus.optimal) return null;
    const value = model.getObjectiveValue();
    return bound === "min" ? -value : value;
  } finally {
    model.dispose();
  }
}

/**
 * The rows a proof of infeasibility (HiGHS's dual ray, a Farkas certificate) uses; null when HiGHS gives
 * none. A row the certificate does not use cannot repair the plan alone: moving its bound leaves the
 * same certificate valid. This spares one LP per such bound, most of a plan's rows.
 */
function certificateRows(highs: Highs, lines: readonly PlanLine[], supply: readonly SupplyRow[], layout: ReturnType<typeof planLayout>): Set<number> | null {
  const model = planModel(highs, lines, supply, layout);
  try {
    model.run();
    if (model.getModelStatus() !== highs.constants.modelStatus.infeasible) return null;
    const ray = model.getDualRay();
    if (!ray) return null;
    const scale = Math.max(...Array.from(ray.values, Math.abs), 0);
    if (scale === 0) return null;
    const used = new Set<number>();
    ray.values.forEach((v, r) => {
      if (Math.abs(v) > 1e-9 * scale) used.add(r);
    });
    return used;
  } catch {
    return null;
  } finally {
    model.dispose();
  }
}
