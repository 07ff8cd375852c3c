/**
 * A formula optimized to a confidence level as a pool task (./tasks.ts; docs/decisions.md#optimizing-to-a-confidence-level):
 * the answer of GET /v1/formulas/:id/optimize?confidence=P. P = 0.5 is the least-cost answer itself with
 * the odds added; above it the chance limits are solved by cutting planes (chance-solve.ts), rounded
 * keeping them (chance-rounding.ts), and compared with the book-value optimum (the premium) and with
 * blanket margins (the cost of padding every limit by hand for the same odds on that optimum).
 */
import type { Highs } from "highs";
import { round } from "../domain/formula-math.ts";
import type { ConfidenceResult, OptimizeResult } from "../schemas/optimize.ts";
import { chanceLimits, type Sds } from "./chance-model.ts";
import { chanceRounded } from "./chance-rounding.ts";
import { chanceSensitivity } from "./chance-shadow.ts";
import { solveChance } from "./chance-solve.ts";
import { withCo2eCap } from "./co2e.ts";
import { solveLp } from "./lp.ts";
import { buildProblem, type LeastCostProblem } from "./model.ts";
import { normalQuantile } from "./normal.ts";
import { levelOf, oddsOf } from "./odds.ts";
import { optimizeTask, type OptimizeInput } from "./optimize-task.ts";
import { candidatesOf, costPerTonOf, shapeResult, type CandidateDetail, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";
import { UNITS_PER_PERCENT } from "./limits-check.ts";
import { roundedMix } from "./rounding.ts";
import { lpOf } from "./solve.ts";

export interface ConfidenceInput extends OptimizeInput {
  /** The probability every nutrient limit must hold with, 0.5 to 0.999; null: the plain least-cost answer. */
  confidence: number | null;
  /** sd by ingredient name and nutrient key; absent: 0. */
  sds: Sds;
}

/** The solve's setting: the candidates, the least-cost problem (with the CO2e cap if any) and the chance limits at z. */
export interface ChanceSetting {
  options: OptimizeOptions;
  lookup: (name: string) => CandidateDetail | null;
  problem: LeastCostProblem;
  z: number;
}

/**
 * @example chanceSetting(input, 0.95).z // 1.6449
 */
export function chanceSetting(input: OptimizeInput, confidence: number): ChanceSetting {
  const byName = new Map(input.ingredients.map((i) => [i.name, i]));
  const lookup = (name: string) => byName.get(name) ?? null;
  const options: OptimizeOptions = { include: input.include, prices: new Map(input.prices), includeOutOfStock: input.includeOutOfStock, maxCo2e: input.maxCo2e };
  const problem = buildProblem(candidatesOf(input.formula, lookup, options), input.formula.constraints);
  return { options, lookup, problem: input.maxCo2e == null ? problem : withCo2eCap(problem, input.maxCo2e), z: normalQuantile(confidence) };
}

/**
 * @example confidenceTask(highs, { ...optimizeInput(formula, lookup, NO_OPTIONS), confidence: 0.95, sds }).premium // 4.12
 */
export function confidenceTask(highs: Highs, input: ConfidenceInput): OptimizeResult | ConfidenceResult {
  const plain = optimizeTask(highs, input);
  if (input.confidence === null) return plain;
  const { formula, sds, confidence } = input;
  const setting = chanceSetting(input, confidence);
  const answer = confidence === 0.5 ? plain : atConfidence(highs, formula, setting, sds, plain);
  const mix = (answer.optimized?.ingredients ?? []).map((r) => ({ name: r.name, percent: r.percent, nutrients: setting.lookup(r.name)?.nutrients ?? {} }));
  const deterministicCost = plain.optimized?.costPerTon ?? null;
  const costPerTon = answer.optimized?.costPerTon ?? null;
  return {
    ...answer,
    optimized: answer.optimized && { ...answer.optimized, odds: oddsOf(mix, formula.constraints, sds) },
    confidence,
    deterministicCost,
    premium: costPerTon === null || deterministicCost === null ? null : round(costPerTon - deterministicCost, 2),
    blanketMarginCost: blanketMarginCost(highs, formula, setting, sds, plain),
  };
}

/** The answer above P = 0.5: shadow prices from the final approximation, without ranges, price ranging or entering prices. */
function atConfidence(highs: Highs, formula: FormulaToOptimize, setting: ChanceSetting, sds: Sds, plain: OptimizeResult): Omit<ConfidenceResult, "confidence" | "deterministicCost" | "premium" | "blanketMarginCost" | "optimized"> & { optimized: OptimizeResult["optimized"] } {
  const { problem, z, options, lookup } = setting;
  const limits = chanceLimits(problem.candidates, formula.constraints, sds);
  const solved = solveChance(highs, problem, limits, z);
  if (solved.status === "infeasible") {
    // Repairs are those of the book-value problem when it too is infeasible; a problem only the odds make infeasible has none listed.
    const shaped = shapeResult(formula, lookup, options, { status: "infeasible", problem, conflicts: [] }, new Int32Array(0));
    const { ranging: _ranging, ...rest } = { ...shaped, conflicts: plain.status === "infeasible" ? plain.conflicts : [] };
    return rest;
  }
  const rounded = chanceRounded(highs, problem, limits, z, solved);
  const sensitivity = chanceSensitivity(solved.problem, solved.solution);
  const outcome = { status: "optimal" as const, problem: rounded.solved.problem, solution: rounded.solved.solution, sensitivity };
  const shaped = shapeResult(formula, lookup, options, outcome, rounded.units);
  const local = <T extends { validFrom: number | null; validTo: number | null }>({ validFrom: _from, validTo: _to, ...rest }: T) => rest;
  const { ranging: _ranging, ...rest } = shaped;
  return {
    ...rest,
    shadowPrices: { ...shaped.shadowPrices, nutrients: shaped.shadowPrices.nutrients.map(local), ingredients: shaped.shadowPrices.ingredients.map(local), ratios: shaped.shadowPrices.ratios.map(local) },
    excluded: shaped.excluded.map(({ entersBelow: _enters, ...e }) => e),
  };
}

/**
 * What padding every nutrient limit by hand would cost: each min raised and each max lowered by z × the sd
 * that nutrient has in the returned P = 0.5 mix, then the least-cost problem solved and rounded as usual;
 * null when that problem, or the P = 0.5 one, is infeasible.
 */
function blanketMarginCost(highs: Highs, formula: FormulaToOptimize, setting: ChanceSetting, sds: Sds, plain: OptimizeResult): number | null {
  if (plain.optimized === null) return null;
  if (setting.z === 0) return plain.optimized.costPerTon;
  const mix = plain.optimized.ingredients.map((r) => ({ name: r.name, percent: r.percent, nutrients: setting.lookup(r.name)?.nutrients ?? {} }));
  const nutrients = formula.constraints.nutrients.map((c) => {
    const pad = setting.z * levelOf(mix, sds, c.key).sd;
    return { key: c.key, min: c.min === null ? null : c.min + pad, max: c.max === null ? null : c.max - pad };
  });
  const padded = buildProblem(setting.problem.candidates, { ...formula.constraints, nutrients });
  const problem = setting.options.maxCo2e == null ? padded : withCo2eCap(padded, setting.options.maxCo2e);
  const solution = solveLp(highs, lpOf(problem), { ranging: false });
  if (solution.status === "infeasible") return null;
  const units = roundedMix(highs, problem, solution.x);
  return costPerTonOf(problem.candidates.flatMap((c, j) => (units[j] === 0 ? [] : [{ percent: units[j]! / UNITS_PER_PERCENT, price: c.price }])));
}
