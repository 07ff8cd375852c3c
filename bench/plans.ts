/**
 * The plans, sweeps and batch sheets figures of `make bench` (docs/decisions.md#production-plans,
 * #price-sweeps, #batch-sheets), in-process, each against a baseline measured in the same run:
 * - a production plan of 50 formulas × 60 candidates × 30 limits (3,000 variables) with 10 binding
 *   supply rows: the whole answer (each formula alone, the plan's LP, every line's rounding, usage);
 *   target under 1 s;
 * - a 201-point price sweep of bench/optimize.ts's seeded 60 × 30 formula; target under 100 ms;
 * - a batch sheet of a 25-ingredient saved composition (2,000 kg on a 0.5 kg scale, a 0.01 kg micro
 *   scale below 20 kg); target under 200 ms.
 * The baseline of each is one least-cost answer (optimizeFormula) of a formula of the same size.
 *
 * Run alone: `bun bench/plans.ts` prints the RESULTS.md section and writes it into bench/RESULTS.md
 * (replacing its own section); `FEEDBASE_BENCH_QUICK=1` runs each figure twice (to see it works).
 */
import { loadavg } from "node:os";
import { seeded } from "../src/domain/random.ts";
import { batchSheetTask } from "../src/optimize/batch-task.ts";
import { planTask, type PlanInput } from "../src/optimize/plan-task.ts";
import { NO_OPTIONS, optimizeFormula, type FormulaToOptimize } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { sweepFormula } from "../src/optimize/sweep-formula.ts";
import type { IngredientDetail } from "../src/store/ingredients.ts";
import { medianOf, quantile } from "./history.ts";
import { largeFormula } from "./optimize.ts";
import { writeSection } from "./results-file.ts";

const HEADING = "## Plans, sweeps and batch sheets";
const QUICK = process.env.FEEDBASE_BENCH_QUICK === "1";
const TARGET_MS = { plan: 1000, sweep: 100, batch: 200 } as const;
const PLAN = { formulas: 50, candidates: 60, limits: 30, supply: 10 } as const;
const BATCH_INGREDIENTS = 25;

function timed(n: number, work: () => unknown): number[] {
  for (let i = 0; i < (QUICK ? 1 : 2); i++) work(); // warm-up
  return Array.from({ length: QUICK ? 2 : n }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
}

/**
 * `count` candidates shared by every formula and, per formula, limits around a seeded mix of them
 * (min 0.98 × its level on each, max 1.03 × on every other): feasible by construction.
 */
function formulasOver(seed: number, formulas: number, count: number, limits: number) {
  const next = seeded(seed);
  const keys = Array.from({ length: limits }, (_, k) => `N${k}`);
  const details = Array.from({ length: count }, (_, j): IngredientDetail => ({
    name: `Candidate ${j}`,
    category: "Bench",
    price: Math.round((100 + next() * 1400) * 100) / 100,
    inStock: true,
    co2e: null,
    nutrients: Object.fromEntries(keys.map((k) => [k, Math.round(next() * 6000) / 100])),
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  }));
  const list: FormulaToOptimize[] = Array.from({ length: formulas }, (_, f) => {
    const weights = details.map(() => next());
    const total = weights.reduce((a, b) => a + b, 0);
    // Percents on the 0.0001 grid summing to exactly 100 (the last takes the rest), as a saved formula has them.
    const mix = weights.map((w) => Math.round((w / total) * 1e6) / 1e4);
    mix[mix.length - 1] = Math.round((100 - mix.slice(0, -1).reduce((a, b) => a + b, 0)) * 1e4) / 1e4;
    const level = (key: string) => details.reduce((s, d, j) => s + (d.nutrients[key]! * mix[j]!) / 100, 0);
    return {
      id: `f${f}`,
      name: `Formula ${f}`,
      batchSize: 1000,
      ingredients: details.map((d, j) => ({ name: d.name, percent: mix[j]!, price: d.price })),
      constraints: { nutrients: keys.map((key, k) => ({ key, min: level(key) * 0.98, max: k % 2 === 0 ? level(key) * 1.03 : null })), ingredients: [], ratios: [] },
    };
  });
  const byName = new Map(details.map((d) => [d.name, d]));
  return { details, formulas: list, lookup: (name: string) => byName.get(name) ?? null };
}

export interface PlansBench {
  plan: { ms: number[]; baselineMs: number[]; status: string; binding: number; variables: number };
  sweep: { ms: number[]; baselineMs: number[]; breakpoints: number };
  batch: { ms: number[]; baselineMs: number[]; status: string; lines: number };
  /** The same formula's sheet when what is saved is its optimum: the usual case, a rounding rather than a new mix. */
  batchOfOptimum: { ms: number[]; status: string; roundingCost: number };
}

/** @example const b = await benchPlans(); medianOf(b.plan.ms) // 640 */
export async function benchPlans(): Promise<PlansBench> {
  const highs = await solverRuntime();

  // The plan: 50 formulas over the same 60 candidates; supply rows cap the 10 most used at 70 % of what the formulas alone use.
  const p = formulasOver(50_60_30, PLAN.formulas, PLAN.candidates, PLAN.limits);
  const next = seeded(7);
  const lines = p.formulas.map((formula) => ({ formula, tons: Math.round(200 + next() * 2800) }));
  const alone = new Map<string, number>();
  for (const l of lines) {
    const r = optimizeFormula(highs, l.formula, p.lookup, NO_OPTIONS);
    for (const i of r.optimized?.ingredients ?? []) alone.set(i.name, (alone.get(i.name) ?? 0) + (l.tons * i.percent) / 100);
  }
  const supply = [...alone].sort((a, b) => b[1] - a[1]).slice(0, PLAN.supply).map(([name, tons]) => ({ name, minTons: null, maxTons: Math.round(tons * 0.7) }));
  const input: PlanInput = { id: "bench-plan", name: "50 × 60 × 30", lines, supply, ingredients: p.details, prices: [], includeOutOfStock: false, candidates: "formula", maxCo2e: null };
  const planned = planTask(highs, input);
  const planMs = timed(5, () => planTask(highs, input));
  const planBase = timed(20, () => optimizeFormula(highs, p.formulas[0]!, p.lookup, NO_OPTIONS));

  // The sweep: the price of the candidate the optimum uses most, from 0 to three times it.
  const { formula, lookup } = largeFormula();
  const base = optimizeFormula(highs, formula, lookup, NO_OPTIONS);
  const swept = base.optimized!.ingredients[0]!;
  const range = { ingredient: swept.name, from: 0, to: Math.ceil(swept.price * 3), points: 201 };
  const breakpoints = sweepFormula(highs, formula, lookup, NO_OPTIONS, range).breakpoints.length;
  const sweepMs = timed(20, () => sweepFormula(highs, formula, lookup, NO_OPTIONS, range));
  const sweepBase = timed(20, () => optimizeFormula(highs, formula, lookup, NO_OPTIONS));

  // The batch sheet: a saved composition of 25 ingredients that meets its own limits.
  const b = formulasOver(25_10, 1, BATCH_INGREDIENTS, 10);
  const saved = b.formulas[0]!;
  const sheet = {
    id: saved.id,
    name: saved.name,
    size: 2000,
    resolution: 0.5,
    micro: { resolution: 0.01, below: 20 },
    rows: saved.ingredients.map((r) => ({ ...r, nutrients: b.lookup(r.name)!.nutrients })),
    constraints: saved.constraints,
  };
  const batched = batchSheetTask(highs, sheet);
  const batchMs = timed(10, () => batchSheetTask(highs, sheet));
  const batchBase = timed(20, () => optimizeFormula(highs, saved, b.lookup, NO_OPTIONS));
  // The same formula as a mill saves it: its rounded optimum (formula optimize --save-as), every candidate kept as a row.
  const optimum = optimizeFormula(highs, { ...saved, ingredients: saved.ingredients.map((r) => ({ ...r, percent: 0 })) }, b.lookup, NO_OPTIONS).optimized!;
  const percentOf = new Map(optimum.ingredients.map((i) => [i.name, i.percent]));
  const savedOptimum = { ...sheet, rows: sheet.rows.map((r) => ({ ...r, percent: percentOf.get(r.name) ?? 0 })) };
  const optimumBatched = batchSheetTask(highs, savedOptimum);
  const optimumMs = timed(10, () => batchSheetTask(highs, savedOptimum));

  return {
    plan: { ms: planMs, baselineMs: planBase, status: planned.status, binding: planned.usage.filter((u) => u.bound !== null).length, variables: PLAN.formulas * PLAN.candidates },
    sweep: { ms: sweepMs, baselineMs: sweepBase, breakpoints },
    batch: { ms: batchMs, baselineMs: batchBase, status: batched.status, lines: batched.lines.length },
    batchOfOptimum: { ms: optimumMs, status: optimumBatched.status, roundingCost: optimumBatched.roundingCost },
  };
}

const figure = (ms: number[], target: number) => `median **${medianOf(ms).toFixed(1)} ms** (p90 ${quantile(ms, 0.9).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}; ${ms.length} runs) — ${medianOf(ms) < target ? "under" : "OVER"} the ${target} ms target`;
const ratio = (ms: number[], base: number[]) => `${(medianOf(ms) / medianOf(base)).toFixed(1)} × one least-cost answer of a formula of that size in the same run (median ${medianOf(base).toFixed(2)} ms)`;

/** The RESULTS.md section. */
export function renderPlans(b: PlansBench): string[] {
  return [
    HEADING,
    "",
    `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/plans.ts\` on a shared 2-core machine at a load average of ${loadavg()[0]!.toFixed(1)} (figures are for reading, not asserted; the ratios are the figures that carry over).`,
    "",
    `- A production plan of ${PLAN.formulas} formulas × ${PLAN.candidates} candidates × ${PLAN.limits} limits (${b.plan.variables} variables), ${PLAN.supply} max-supply rows (${b.plan.binding} binding; ${b.plan.status}), the whole answer in-process: ${figure(b.plan.ms, TARGET_MS.plan)}; ${ratio(b.plan.ms, b.plan.baselineMs)} (the plan solves each formula alone too, and rounds every line).`,
    `- A 201-point price sweep of the seeded 60 × 30 formula (${b.sweep.breakpoints} breakpoints): ${figure(b.sweep.ms, TARGET_MS.sweep)}; ${ratio(b.sweep.ms, b.sweep.baselineMs)}.`,
    `- A batch sheet of a ${BATCH_INGREDIENTS}-ingredient composition (2,000 kg, 0.5 kg steps, 0.01 kg below 20 kg; ${b.batch.lines} lines, ${b.batch.status}): ${figure(b.batch.ms, TARGET_MS.batch)}; ${ratio(b.batch.ms, b.batch.baselineMs)}. The composition is seeded at random, far from the formula's optimum, so the cheapest whole-step mix is a new formulation, not a rounding of it.`,
    `- The same formula's sheet when its saved composition is its own rounded optimum (what \`formula optimize --save-as\` saves; ${b.batchOfOptimum.status}, rounding cost ${b.batchOfOptimum.roundingCost.toFixed(2)} a batch): ${figure(b.batchOfOptimum.ms, TARGET_MS.batch)}.`,
  ];
}

if (import.meta.main) {
  const section = renderPlans(await benchPlans());
  process.stdout.write(section.join("\n") + "\n");
  if (!QUICK) writeSection(section);
  process.exit(0);
}
