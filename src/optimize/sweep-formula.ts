/**
 * A formula's price sweep in the shape of GET /v1/formulas/:id/sweep, from plain data: the formula,
 * the ingredients its solve may use, the what-ifs and the range (docs/decisions.md#price-sweeps).
 */
import type { Highs } from "highs";
import { ValidationError } from "../domain/errors.ts";
import type { SweepResult } from "../schemas/sweep.ts";
import { buildProblem } from "./model.ts";
import { candidatesOf, type CandidateDetail, type FormulaToOptimize, type OptimizeOptions } from "./result.ts";
import type { SweepRange } from "./sweep-params.ts";
import { sweep } from "./sweep.ts";

/**
 * @example sweepFormula(highs, formula, (n) => ingredients.get(n) ?? null, NO_OPTIONS, { ingredient: "Maize", from: 150, to: 300, points: 51 }).breakpoints
 */
export function sweepFormula(highs: Highs, formula: FormulaToOptimize, lookup: (name: string) => CandidateDetail | null, options: OptimizeOptions, range: SweepRange): SweepResult {
  if (options.prices.has(range.ingredient)) throw new ValidationError("price must not name the swept ingredient");
  if (!lookup(range.ingredient)) throw new ValidationError(`Unknown ingredient: ${range.ingredient}`);
  const candidates = candidatesOf(formula, lookup, options);
  const swept = candidates.findIndex((c) => c.name === range.ingredient);
  if (swept === -1) throw new ValidationError(`Not a candidate: ${range.ingredient}`);
  const out = sweep(highs, { problem: buildProblem(candidates, formula.constraints), swept, from: range.from, to: range.to, points: range.points });
  return { id: formula.id, name: formula.name, ingredient: range.ingredient, points: out.points, breakpoints: out.breakpoints, status: out.status };
}
