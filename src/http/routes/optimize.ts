/**
 * Least-cost formulation over HTTP (docs/decisions.md#least-cost-formulation): reads (a read key may
 * call them: nothing is stored), cached per data generation like every read, so a repeated question
 * is answered from the kept body. Solves run in the solver pool (src/optimize/pool.ts), never on the
 * request thread: a client waiting for one holds nothing else up, and a solve that fails fails alone.
 */
import { ValidationError } from "../../domain/errors.ts";
import { checkSolveSize } from "../../optimize/limits.ts";
import { optimizeInput, whatIfInput, type OptimizeInput } from "../../optimize/optimize-task.ts";
import { candidateNamesOf, everyIngredient, type CandidateSet } from "../../optimize/candidates.ts";
import { NO_OPTIONS, type FormulaToOptimize, type OptimizeOptions } from "../../optimize/result.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import { savingsWorklist } from "../../optimize/worklist.ts";
import * as O from "../../schemas/optimize.ts";
import * as C from "../../schemas/confidence.ts";
import type { Reads } from "../../store/backend.ts";
import type { IngredientDetail } from "../../store/ingredients.ts";
import { openBody, openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute, type RequestContext } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";

/** The ingredients a solve may use, read before it starts; an unknown name in `include` or `price` is a 400. */
export async function ingredientsFor(read: Reads, ws: number, formula: FormulaToOptimize, options: OptimizeOptions): Promise<Map<string, IngredientDetail>> {
  // Every name of `include` is a candidate (an unknown one is refused): too many is refused before reading them.
  checkSolveSize({ candidates: options.include.length, limits: 0, ratios: 0 });
  const found = await read.findIngredients(ws, candidateNamesOf(formula, options));
  refuseUnknown(found, options);
  return found;
}

/** candidates=all: the whole ingredient list in one read, and the options that make each of them a candidate. */
async function everyIngredientFor(read: Reads, ws: number, options: OptimizeOptions): Promise<{ found: Map<string, IngredientDetail>; options: OptimizeOptions }> {
  const every = await read.listIngredientDetails(ws);
  const found = new Map(every.map((i) => [i.name, i]));
  refuseUnknown(found, options);
  return { found, options: everyIngredient(options, every) };
}

function refuseUnknown(found: ReadonlyMap<string, IngredientDetail>, options: OptimizeOptions): void {
  for (const name of [...options.include, ...options.prices.keys()]) if (!found.has(name)) throw new ValidationError(`Unknown ingredient: ${name}`);
}

/**
 * The ingredients a solve reads and the options that make them candidates, for `candidates` (formula or all).
 * @example const { found, options } = await candidateIngredients(ctx.read, ws, formula, asked, query.candidates)
 */
export async function candidateIngredients(read: Reads, ws: number, formula: FormulaToOptimize, asked: OptimizeOptions, set: CandidateSet): Promise<{ found: Map<string, IngredientDetail>; options: OptimizeOptions }> {
  return set === "all" ? everyIngredientFor(read, ws, asked) : { found: await ingredientsFor(read, ws, formula, asked), options: asked };
}

/** The optimization at a confidence level: the task's input with each candidate's sds from its analyses since `since`. */
async function confidenceAnswer(ctx: RequestContext, ws: number, input: OptimizeInput, confidence: number, since: string) {
  const sds = await ctx.read.variability(ws, input.ingredients.map((i) => i.name), since);
  return ctx.solver.run("confidence", { ...input, confidence, sds });
}

export const byName = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);

export const optimizeRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/optimize",
    summary: "The least-cost mix that meets the formula's limits, and how firm that answer is",
    description:
      "Solves the formula's least-cost linear program at today's prices and stock (or the what-if prices given): the saved composition at these prices, the optimized one, the saving, shadow prices of the binding limits with the range over which each holds, the price range over which each ingredient's inclusion stays optimal, the price below which each excluded candidate would enter, and, when no mix meets the limits, the conflicts to relax. Candidates: the composition, the names of its inclusion limits, `include` and any ingredient given a what-if `price`; with `candidates=all`, every ingredient of the workspace. With `maxCo2e`, the mix's footprint is capped (kg CO2e per tonne of feed): candidates of unknown `co2e` are held at 0 (listed in `excluded` with `reason: \"co2e unknown\"`), and a binding cap has its shadow price as the cost of abating a tonne of CO2e. With `confidence` (0.5 to 0.999), every nutrient limit is met with at least that probability, each ingredient's values varying as its lab analyses since `analysesSince` do (sd of a key with at least 3 analyses, else 0): the answer gains the odds of each nutrient, the book-value cost (`deterministicCost`), the `premium` over it and the cost of the blanket margin it replaces; above 0.5 its shadow prices are local (no range) and price ranging and entering prices are left out. Nothing is stored.",
    params: ID_PARAM,
    query: O.optimizeQuery.extend(C.confidenceParams),
    // Only whether it exists: a cached answer is then served without reading the formula.
    lookup: (ctx, params) => ctx.read.requireFormulaId(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The optimization (with `confidence`: ConfidenceOptimizeResponse)", schema: C.optimizeOrConfidenceRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const { include, prices } = whatIfOf(ctx.rawQuery);
      const asked: OptimizeOptions = { include, prices, includeOutOfStock: query.includeOutOfStock, maxCo2e: query.maxCo2e };
      const since = query.confidence === null ? null : C.sinceOrDefault(query.analysesSince, ctx.clock());
      const atConfidence = query.confidence === null ? [] : [query.confidence, since];
      const inputNow = async () => {
        const formula = await ctx.read.requireFormula(ws, params.id);
        const { found, options } = await candidateIngredients(ctx.read, ws, formula, asked, query.candidates);
        return optimizeInput(formula, (name) => found.get(name) ?? null, options);
      };
      return ctx.cached(cacheKey("optimize", ws, params.id, include, [...prices].sort(byName), query.includeOutOfStock, query.maxCo2e, query.candidates, ...atConfidence), async () => {
        if (query.confidence !== null) return openBody(await confidenceAnswer(ctx, ws, await inputNow(), query.confidence, since!));
        // The formula and its candidates' details depend on the what-ifs' names only (in their order, the
        // answer's): another price for the same names reads and serializes nothing on the event loop.
        const base = await ctx.kept(cacheKey("optimize input", ws, params.id, include, [...prices.keys()], query.includeOutOfStock, query.candidates), async () => {
          const { formula, ingredients, include } = await inputNow();
          return JSON.stringify({ formula, ingredients, include });
        });
        return openBodyJson(await ctx.solver.runJsonOver("optimize", base, whatIfInput(asked)));
      });
    },
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/reports/savings",
    summary: "The worklist: every formula optimized at today's prices and stock, by saving",
    description:
      "Each formula's saved composition and least-cost mix at today's prices and stock (candidates as `candidates` says), whether the saved composition meets its own limits (`savedMeetsLimits`, `violations`: such a saving includes the cost of meeting them), ordered by saving per ton (descending), infeasible formulas last with a null optimizedCost and saving, then any the solver could not answer (`status: \"error\"` with a `message`, e.g. its time limit passed): one such formula never fails the others.",
    params: {},
    query: O.savingsQuery,
    response: { status: 200, description: "The worklist", schema: O.savingsReport },
    errors: [400, 503],
    handle(ctx, { query }) {
      const ws = ctx.key.workspaceId;
      return ctx.cached(cacheKey("savings", ws, query.candidates), async () => {
        // Both reads before the first yield, so the worklist is of one state of the data.
        const formulas = await ctx.read.listFormulaDetails(ws);
        const every = await ctx.read.listIngredientDetails(ws);
        const ingredients = new Map(every.map((i) => [i.name, i]));
        const options = query.candidates === "all" ? everyIngredient(NO_OPTIONS, every) : NO_OPTIONS;
        const data = await savingsWorklist(ctx.solver.run, formulas, (name) => ingredients.get(name) ?? null, ctx.solver.size, options);
        return openBody(data, { count: data.length });
      });
    },
  }),
];
