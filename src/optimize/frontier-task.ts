/**
 * The frontier of one formula as people read it (GET /v1/formulas/:id/frontier), a pure task
 * `(highs, input) => output` on plain data: footprints to 1 decimal, costs to 2, percents to 4, and the
 * cost of each tonne of CO2e avoided computed from the figures shown, so a reader who redoes the
 * division finds the same number.
 */
import type { Highs } from "highs";
import { round, type FormulaConstraints } from "../domain/formula-math.ts";
import { frontierOf, type FrontierPoint } from "./frontier.ts";
import { inMix, type Candidate } from "./model.ts";
import { checkSize } from "./optimize-task.ts";
import { candidatesOf, shapeConflict, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";
import type { IngredientDetail } from "../store/ingredients.ts";

export interface FrontierTaskInput {
  id: string;
  name: string;
  candidates: Candidate[];
  constraints: FormulaConstraints;
  points: number;
}

export interface FrontierShown {
  id: string;
  name: string;
  status: "optimal" | "infeasible";
  points: { co2ePerTon: number; costPerTon: number; ingredients: { name: string; percent: number }[] }[];
  abatement: { from: number; to: number; costPerTonneCo2e: number | null }[];
  heldOut: string[];
  conflicts: ReturnType<typeof shapeConflict>[];
}

/**
 * The task's input: the formula's candidates (as the optimization takes them) with their footprints,
 * after the solver's size limits are checked, so a refused problem is never copied to a worker.
 * @example frontierInput(formula, (n) => byName.get(n) ?? null, NO_OPTIONS, 11).candidates.length
 */
export function frontierInput(formula: FormulaToOptimize, lookup: (name: string) => IngredientDetail | null, options: OptimizeOptions, points: number): FrontierTaskInput {
  const candidates = candidatesOf(formula, lookup, options);
  checkSize(formula, candidates.length);
  return { id: formula.id, name: formula.name, candidates, constraints: formula.constraints, points };
}

/**
 * @example frontierTask(highs, { id: "broiler-starter", name: "Broiler starter", candidates, constraints, points: 11 }).abatement[0] // { from: 612.3, to: 590.1, costPerTonneCo2e: 41.44 }
 */
export function frontierTask(highs: Highs, input: FrontierTaskInput): FrontierShown {
  const frontier = frontierOf(highs, input);
  const head = { id: input.id, name: input.name, status: frontier.status, heldOut: frontier.heldOut };
  if (frontier.status === "infeasible") return { ...head, points: [], abatement: [], conflicts: frontier.conflicts.map(shapeConflict) };
  const points = frontier.points.map((p) => shownPoint(frontier.candidates, p));
  const abatement = points.slice(1).map((p, k) => {
    const before = points[k]!;
    // Differences of the shown decimals, without binary noise (612.3 − 590.1 is 22.2).
    const avoided = round(before.co2ePerTon - p.co2ePerTon, 1);
    const extra = round(p.costPerTon - before.costPerTon, 2);
    // Cost per tonne of feed over kg CO2e per tonne of feed: × 1000 makes it per tonne of CO2e.
    return { from: before.co2ePerTon, to: p.co2ePerTon, costPerTonneCo2e: avoided === 0 ? null : round((extra / avoided) * 1000, 2) };
  });
  return { ...head, points, abatement, conflicts: [] };
}

function shownPoint(candidates: readonly Candidate[], p: FrontierPoint): FrontierShown["points"][number] {
  const mix = candidates.flatMap((c, j) => (inMix(p.x, j) ? [{ name: c.name, percent: round(p.x[j]!, 4) }] : []));
  mix.sort((a, b) => b.percent - a.percent || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { co2ePerTon: round(p.co2e, 1), costPerTon: round(p.cost, 2), ingredients: mix };
}
