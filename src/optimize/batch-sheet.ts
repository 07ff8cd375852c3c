/**
 * A batch sheet (docs/decisions.md#batch-sheets): the amounts a mixer's scales can weigh for one batch
 * of a saved formula. Each amount is a whole number of its scale's steps, they sum to the batch, and
 * every limit of the formula holds on them exactly; among such amounts of the composition's own
 * ingredients, the cheapest at today's prices, then the nearest to the exact amounts, then the one
 * giving more to the name that sorts first. When no amounts meet every limit, the nearest ones (steps
 * and sum kept) and the limits they miss.
 */
import type { Highs } from "highs";
import { add, atScale, compare, gcd, mul } from "./decimal-ops.ts";
import { decimalOf, type Decimal } from "./exact.ts";
import { achievedNutrients, round, type FormulaConstraints } from "../domain/formula-math.ts";
import { ValidationError } from "../domain/errors.ts";
import { branchGrid, type GridProblem } from "./grid-branch.ts";
import { gridMip } from "./grid-mip.ts";
import { gridRows, missedBounds, type GridRow } from "./grid-rows.ts";
import { limitTarget, type FormulaLimitTarget } from "./limit-target.ts";

export interface BatchSheetInput {
  id: string;
  name: string;
  /** kg in the batch. */
  size: number;
  /** kg per step of the macro scale. */
  resolution: number;
  /** A line whose exact amount is below `below` kg is weighed on the micro scale in steps of `resolution` kg. */
  micro: { resolution: number; below: number } | null;
  /** The saved composition, with today's prices per ton. */
  rows: ReadonlyArray<{ name: string; percent: number; price: number; nutrients: Readonly<Record<string, number>> }>;
  constraints: FormulaConstraints;
}

export interface BatchSheetLine {
  name: string;
  scale: "macro" | "micro";
  step: number;
  kg: number;
  percent: number;
  exactKg: number;
  deviationKg: number;
}

export type BatchConflict = FormulaLimitTarget & { bound: "min" | "max"; limit: number; bestAchievable: number | null };

export interface BatchSheet {
  id: string;
  name: string;
  size: number;
  status: "optimal" | "infeasible";
  cost: number;
  exactCost: number;
  roundingCost: number;
  lines: BatchSheetLine[];
  nutrients: Record<string, number>;
  conflicts: BatchConflict[];
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * @example batchSheet(highs, { id: "broiler-starter", name: "Broiler starter", size: 2000, resolution: 0.5, micro: { resolution: 0.001, below: 20 }, rows, constraints }).lines[0] // { name: "Maize", scale: "macro", kg: 1109.5, ... }
 */
export function batchSheet(highs: Highs, input: BatchSheetInput): BatchSheet {
  const program = sheetProgram(input);
  const { lines, rows, steps, exact, most, nameOrder, scale } = program;
  const found = branchGrid(program);
  if (found?.status === "optimal") return shape(input, lines, rows, found.n, steps, scale, "optimal");
  // Our own search gave up (numerical trouble or too many nodes): HiGHS.
  const cheapest = found === null ? cheapestByHighs(highs, program) : null;
  if (cheapest !== null) return shape(input, lines, rows, cheapest, steps, scale, "optimal");
  // No whole steps keep every limit: the nearest amounts, steps and sum kept.
  const mip = gridMip(highs, rows.slice(0, 1), steps, exact, most);
  try {
    const nearest = mip.minimiseDeviation();
    if (nearest === null) throw new ValidationError("No amounts in these steps sum to size: give a resolution that divides size");
    return shape(input, lines, rows, mip.largestInOrder(nameOrder, nearest), steps, scale, "infeasible");
  } finally {
    mip.dispose();
  }
}

/** A sheet's integer program: its lines, their rows over whole steps, amounts in integer units of 10^-scale kg. */
export function sheetProgram(input: BatchSheetInput) {
  const merged = new Map<string, { name: string; percent: Decimal; price: number; nutrients: Readonly<Record<string, number>> }>();
  for (const r of input.rows) {
    const seen = merged.get(r.name);
    if (seen) seen.percent = add(seen.percent, decimalOf(r.percent));
    else merged.set(r.name, { ...r, percent: decimalOf(r.percent) });
  }
  const size = decimalOf(input.size);
  const lines = [...merged.values()].map((r) => {
    // exact kg = percent × size / 100, kept as a decimal: the micro test is strict and exact.
    const product = mul(r.percent, size);
    const exactKg = { digits: product.digits, scale: product.scale + 2 };
    const micro = input.micro !== null && compare(exactKg, decimalOf(input.micro.below)) < 0;
    return { ...r, exactKg, scale: micro ? ("micro" as const) : ("macro" as const), step: micro ? input.micro!.resolution : input.resolution };
  });
  const rows = gridRows(lines, input.size, input.constraints);
  // Amounts in integer units of 10^-scale kg, fine enough for every step and exact amount.
  const scale = Math.max(size.scale, ...lines.map((l) => Math.max(l.exactKg.scale, decimalOf(l.step).scale)));
  const steps = lines.map((l) => atScale(decimalOf(l.step), scale));
  // Prices count to 0.0001 per ton: a price computed elsewhere may carry binary noise (276.03999999999996)
  // that would make the cost row's integers too large for the solver to hold exactly.
  const prices = lines.map((l) => decimalOf(round(l.price, 4)));
  const priceScale = Math.max(...lines.map((l, i) => prices[i]!.scale + decimalOf(l.step).scale), 0);
  const costs = lines.map((l, i) => atScale(mul(prices[i]!, decimalOf(l.step)), priceScale));
  const g = gcd(costs);
  return {
    lines,
    rows,
    scale,
    steps,
    exact: lines.map((l) => atScale(l.exactKg, scale)),
    most: steps.map((s) => atScale(size, scale) / s),
    cost: costs.map((c) => (g === 0n ? 0n : c / g)),
    nameOrder: lines.map((_, i) => i).sort((a, b) => byBytes(lines[a]!.name, lines[b]!.name)),
  };
}

/**
 * The same lexicographic optimum in three HiGHS stages: the least cost; Σ |deviation| with the cost
 * held; each line in name order with both held. null when no whole steps keep every limit.
 */
export function cheapestByHighs(highs: Highs, p: GridProblem): bigint[] | null {
  const mip = gridMip(highs, p.rows, p.steps, p.exact, p.most);
  try {
    const cheapest = mip.minimiseCost(p.cost);
    if (cheapest === null) return null;
    mip.capCost(p.cost, cheapest.reduce((sum, v, i) => sum + v * p.cost[i]!, 0n));
    const n = mip.largestInOrder(p.nameOrder, mip.minimiseDeviation(cheapest)!);
    const missed = p.rows.filter((row) => missedBounds(row, n).length > 0);
    if (missed.length > 0) throw new Error(`a batch sheet missed ${missed.length} limits on whole steps`);
    return n;
  } finally {
    mip.dispose();
  }
}

function shape(input: BatchSheetInput, lines: ReadonlyArray<{ name: string; price: number; nutrients: Readonly<Record<string, number>>; exactKg: Decimal; scale: "macro" | "micro"; step: number }>, rows: readonly GridRow[], n: readonly bigint[], steps: readonly bigint[], scale: number, status: BatchSheet["status"]): BatchSheet {
  const kgOf = (i: number) => Number(`${steps[i]! * n[i]!}e-${scale}`);
  const exactOf = (i: number) => Number(`${lines[i]!.exactKg.digits}e-${lines[i]!.exactKg.scale}`);
  const percents = lines.map((_, i) => (kgOf(i) / input.size) * 100);
  const sheetLines = lines.map((l, i) => ({
    name: l.name,
    scale: l.scale,
    step: l.step,
    kg: round(kgOf(i), 3),
    percent: round(percents[i]!, 4),
    exactKg: round(exactOf(i), 3),
    deviationKg: round(kgOf(i) - exactOf(i), 3),
  }));
  sheetLines.sort((a, b) => (a.scale === b.scale ? 0 : a.scale === "macro" ? -1 : 1) || b.kg - a.kg || byBytes(a.name, b.name));
  const costOfKg = (kg: (i: number) => number) => round(lines.reduce((sum, l, i) => sum + (kg(i) / 1000) * l.price, 0), 2);
  const cost = costOfKg(kgOf);
  const exactCost = costOfKg(exactOf);
  const mix = lines.map((l, i) => ({ percent: percents[i]!, nutrients: l.nutrients }));
  const level = (key: string) => mix.reduce((sum, r) => sum + (r.percent / 100) * (Object.hasOwn(r.nutrients, key) ? r.nutrients[key]! : 0), 0);
  const conflicts = status === "optimal" ? [] : rows.slice(1).flatMap((row) =>
    missedBounds(row, n).map((bound): BatchConflict => {
      const limit = row.limit!;
      let value: number | null;
      if (limit.kind === "nutrient") value = level(limit.key);
      else if (limit.kind === "ingredient") value = lines.reduce((sum, l, i) => sum + (l.name === limit.name ? percents[i]! : 0), 0);
      else value = level(limit.denominator) === 0 ? null : level(limit.numerator) / level(limit.denominator);
      const bounds = limit.kind === "ratio" ? limit.limit : bound === "min" ? limit.min! : limit.max!;
      return { ...limitTarget(limit), bound, limit: bounds, bestAchievable: value === null ? null : round(value, 4) };
    }),
  );
  return {
    id: input.id,
    name: input.name,
    size: input.size,
    status,
    cost,
    exactCost,
    roundingCost: round(cost - exactCost, 2),
    lines: sheetLines,
    nutrients: achievedNutrients(mix),
    conflicts,
  };
}
