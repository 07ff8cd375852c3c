/**
 * A production plan optimized, as a pool task (docs/decisions.md#production-plans): the multi-blend LP
 * over every line with its supply rows, each formula's mix rounded as a saved optimum is (percents on
 * the 0.0001 grid that keep its limits), usage against supply with shadow prices, the cost of sharing
 * against each formula alone, and the repairs when no plan meets everything. Plain data in and out.
 * With `candidates=all` every line may use every ingredient of the workspace; with `maxCo2e` the plan's
 * average footprint is capped (plan-lp.ts), unknown footprints are held at 0 in the plan, and the cap's
 * shadow price is the cost of abating a tonne of CO2e. The formulas alone ignore supply and cap alike.
 */
import type { Highs } from "highs";
import { co2ePerTonOf } from "../domain/footprint.ts";
import { round } from "../domain/formula-math.ts";
import type { PlanResult } from "../schemas/plans.ts";
import type { IngredientDetail } from "../store/ingredients.ts";
import { checkSolveSize } from "./limits.ts";
import { everyIngredient, type CandidateSet } from "./candidates.ts";
import { co2eCoefficients, holdUnknownCo2e } from "./co2e.ts";
import { BASIS, solveLp } from "./lp.ts";
import { buildProblem, type LeastCostProblem } from "./model.ts";
import { planRepairs } from "./plan-repairs.ts";
import { solvePlan, type PlanLine, type SupplyRow } from "./plan-lp.ts";
import { repairsOf } from "./repairs.ts";
import { candidatesOf, costPerTonOf, shapeConflict, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";
import { roundedMix } from "./rounding.ts";
import { lpOf } from "./solve.ts";

export interface PlanInput {
  id: string;
  name: string;
  lines: { formula: FormulaToOptimize; tons: number }[];
  supply: SupplyRow[];
  /** Every ingredient a candidate or supply row may name. */
  ingredients: IngredientDetail[];
  /** What-if prices per ton; a price on a non-candidate makes it a candidate of every line. */
  prices: [string, number][];
  includeOutOfStock: boolean;
  /** `all`: every ingredient of the workspace is a candidate of every line. */
  candidates: CandidateSet;
  /** A cap on the plan's average footprint, kg CO2e per tonne; null: none. */
  maxCo2e: number | null;
}

const GRID = 10_000;
/** Two percents this close are the same mix (the plan's line against the formula alone). */
const SAME_PERCENT = 1e-7;
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** Ingredient order as the ingredient list has it: case-insensitive (ASCII), then exact. */
const byIngredientName = (a: string, b: string) => (asciiLower(a) < asciiLower(b) ? -1 : asciiLower(a) > asciiLower(b) ? 1 : a < b ? -1 : a > b ? 1 : 0);

/** @example planTask(highs, input).sharingCost // 0 when no supply binds */
export function planTask(highs: Highs, input: PlanInput): PlanResult {
  const byName = new Map(input.ingredients.map((i) => [i.name, i]));
  const asked: OptimizeOptions = { include: input.prices.map(([name]) => name), prices: new Map(input.prices), includeOutOfStock: input.includeOutOfStock };
  const options = input.candidates === "all" ? everyIngredient(asked, input.ingredients) : asked;
  const { maxCo2e } = input;
  // Each formula's own problem (solved alone), and the plan's lines: the same, with unknown footprints held under a cap.
  const own: LeastCostProblem[] = input.lines.map((l) => buildProblem(candidatesOf(l.formula, (n) => byName.get(n) ?? null, options), l.formula.constraints));
  const lines: PlanLine[] = input.lines.map((l, f) => ({ tons: l.tons, problem: maxCo2e === null ? own[f]! : { ...own[f]!, candidates: holdUnknownCo2e(own[f]!.candidates) } }));
  const cells = lines.reduce((n, l) => n + l.problem.candidates.length, 0);
  checkSolveSize({ candidates: Math.ceil(cells / Math.max(1, lines.length)), limits: 0, ratios: 0, planLines: lines.length });
  const totalTons = round(input.lines.reduce((s, l) => s + l.tons, 0), 3);
  const head = { id: input.id, name: input.name, totalTons };

  // Each formula alone (supply ignored): the independent figures, and whether the plan can be met at all.
  const alone = own.map((problem) => solveLp(highs, lpOf(problem), { ranging: false }));
  const blocked = alone.findIndex((s) => s.status === "infeasible");
  const aloneMix = alone.map((s, f) => (s.status === "optimal" ? roundedMix(highs, own[f]!, s.x) : null));
  const perTon = (f: number, units: Int32Array) => costPerTonOf(lines[f]!.problem.candidates.map((c, j) => ({ percent: units[j]! / GRID, price: c.price })));
  const independentPerTon = aloneMix.map((units, f) => (units === null ? null : perTon(f, units)));
  const independentCost = blocked === -1 ? round(input.lines.reduce((s, l, f) => s + l.tons * independentPerTon[f]!, 0), 2) : null;

  // Each line's basis alone starts the plan's simplex; under a cap the lines hold what alone they may use, so from scratch.
  const start = maxCo2e === null ? alone.map((s) => ({ colStatus: s.colStatus, rowStatus: s.rowStatus })) : null;
  const solution = blocked === -1 ? solvePlan(highs, lines, input.supply, maxCo2e, start) : null;
  if (solution === null || solution.status === "infeasible") {
    const conflicts = blocked !== -1
      ? repairsOf(highs, own[blocked]!).map((r) => ({ formula: input.lines[blocked]!.formula.id, ...shapeConflict(r) }))
      : planRepairs(highs, lines, input.supply, maxCo2e).map((r) =>
          r.kind === "supply" || r.kind === "co2e" ? r : { formula: input.lines[r.line]!.formula.id, ...shapeConflict({ limit: r.limit, bound: r.bound, value: r.value, bestAchievable: r.bestAchievable, alone: true }) },
        );
    return {
      ...head,
      status: "infeasible",
      cost: null,
      independentCost,
      sharingCost: null,
      co2ePerTon: null,
      formulas: input.lines.map((l, f) => ({ id: l.formula.id, name: l.formula.name, tons: l.tons, costPerTon: null, independentCostPerTon: independentPerTon[f]!, ingredients: [] })),
      usage: [],
      conflicts,
    };
  }

  const supplied = new Map(input.supply.map((s, k) => [s.name, bindingSide(s, solution.supply[k]!.status)]));
  // A line whose mix in the plan is its mix alone shows the same rounded mix (the plan did not move it),
  // unless it uses an ingredient whose supply binds, or a cap holds: its rounding must then keep its share.
  const mixes = lines.map((line, f) => {
    const x = solution.x[f]!;
    const shares = maxCo2e !== null || line.problem.candidates.some((c, j) => x[j]! > SAME_PERCENT && supplied.get(c.name) !== undefined && supplied.get(c.name) !== null);
    const same = !shares && line.problem.candidates.every((_, j) => Math.abs(x[j]! - alone[f]!.x[j]!) <= SAME_PERCENT);
    return same ? aloneMix[f]! : roundedMix(highs, pinned(line.problem, x, supplied, maxCo2e !== null), x);
  });
  const costPerTon = mixes.map((units, f) => perTon(f, units));
  const cost = round(input.lines.reduce((s, l, f) => s + l.tons * costPerTon[f]!, 0), 2);
  const used = new Map<string, number>();
  const formulas = input.lines.map((l, f) => {
    const ingredients = lines[f]!.problem.candidates.flatMap((c, j) => {
      const units = mixes[f]![j]!;
      if (units === 0) return [];
      used.set(c.name, (used.get(c.name) ?? 0) + (l.tons * units) / GRID / 100);
      return [{ name: c.name, percent: units / GRID, tons: round((l.tons * units) / GRID / 100, 3) }];
    });
    // As the optimization lists its mix: the largest share first.
    ingredients.sort((a, b) => b.percent - a.percent || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { id: l.formula.id, name: l.formula.name, tons: l.tons, costPerTon: costPerTon[f]!, independentCostPerTon: independentPerTon[f]!, ingredients };
  });
  const rows = new Map(input.supply.map((s, k) => [s.name, { row: s, lp: solution.supply[k]! }]));
  const usage = [...new Set([...used.keys(), ...rows.keys()])].sort(byIngredientName).map((name) => {
    const s = rows.get(name);
    const tons = round(used.get(name) ?? 0, 3);
    if (!s) return { name, tons, minTons: null, maxTons: null, bound: null, shadowPrice: null };
    const binding = s.lp.status === BASIS.lower || s.lp.status === BASIS.upper;
    const bound = !binding ? null : s.row.minTons !== null && s.row.minTons === s.row.maxTons ? (s.lp.dual >= 0 ? "min" : "max") : s.lp.status === BASIS.lower ? "min" : "max";
    return { name, tons, minTons: s.row.minTons, maxTons: s.row.maxTons, bound, shadowPrice: bound === null ? null : round(s.lp.dual, 2) } as const;
  });
  // The plan's average footprint on the mixes shown; unknown when a row of them has no known co2e.
  let kg: number | null = 0;
  mixes.forEach((units, f) => {
    const rows = lines[f]!.problem.candidates.flatMap((c, j) => (units[j] === 0 ? [] : [{ co2e: c.co2e, percent: units[j]! / GRID }]));
    const perTon = co2ePerTonOf(rows);
    kg = kg === null || perTon === null ? null : kg + input.lines[f]!.tons * perTon;
  });
  const co2ePerTon = kg === null ? null : round(kg / totalTons, 1);
  const cap = solution.co2e;
  const capBinds = cap !== null && (cap.status === BASIS.upper || cap.status === BASIS.lower) && maxCo2e !== null;
  // Per tonne of the plan: the row is written on the plan's average, so its dual over the total tons is per tonne of feed.
  const co2e = capBinds ? { co2e: { limit: maxCo2e, shadowPrice: round(cap.dual / totalTons, 6), perTonneCo2e: round((-cap.dual / totalTons) * 1000, 2) } } : {};
  return { ...head, status: "optimal", cost, independentCost, sharingCost: round(cost - independentCost!, 2), co2ePerTon, ...co2e, formulas, usage, conflicts: [] };
}

/** Half the window a supplied candidate's percent may move when its line's mix is rounded (percent). */
const PIN = 0.0005;

/** Which bound of a supply row binds at the plan's optimum (a fixed row, min = max, counts as neither: it moves both ways). */
function bindingSide(row: SupplyRow, status: number): "min" | "max" | null {
  if (row.minTons !== null && row.minTons === row.maxTons) return null;
  return status === BASIS.upper ? "max" : status === BASIS.lower ? "min" : null;
}

/**
 * The line's problem with each supplied candidate held within ±0.0005 % of the plan's percent, and not
 * past it toward a binding bound (so no line's rounding takes more of a binding max, or less of a binding
 * min, than the plan: the supply holds on the mixes shown), and under a cap its footprint at most the
 * plan's for this line: the rounding re-solves the formula alone with its bounds pulled in, which would
 * otherwise forget the supply and the cap.
 */
function pinned(problem: LeastCostProblem, x: Float64Array, supplied: ReadonlyMap<string, "min" | "max" | null>, capped: boolean): LeastCostProblem {
  const pins = problem.candidates.flatMap((c, j) => {
    if (!supplied.has(c.name)) return [];
    const side = supplied.get(c.name);
    const coefficients = new Float64Array(problem.candidates.length);
    coefficients[j] = 1;
    const lower = side === "min" ? x[j]! : Math.max(0, x[j]! - PIN);
    const upper = side === "max" ? x[j]! : x[j]! + PIN;
    return [{ limit: { kind: "ingredient" as const, name: c.name, min: lower, max: upper }, coefficients, lower, upper }];
  });
  if (!capped) return { ...problem, rows: [...problem.rows, ...pins] };
  const coefficients = co2eCoefficients(problem.candidates);
  const footprint = coefficients.reduce((s, a, j) => s + a * x[j]!, 0);
  return { ...problem, rows: [...problem.rows, ...pins, { limit: { kind: "co2e", max: footprint }, coefficients, lower: -Infinity, upper: footprint }] };
}
