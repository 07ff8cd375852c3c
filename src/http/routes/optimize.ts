/**
 * Least-cost formulation over HTTP (docs/decisions.md#least-cost-formulation): reads (a read key may
 * call them: nothing is stored), cached per data generation like every read. A solve runs in one turn
 * and so holds the server for its own few milliseconds only; the worklist yields to other requests
 * between formulas.
 */
import { ValidationError } from "../../domain/errors.ts";
import { optimizeFormula, type OptimizeOptions } from "../../optimize/result.ts";
import { solverRuntime } from "../../optimize/runtime.ts";
import { savingsWorklist } from "../../optimize/worklist.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import * as O from "../../schemas/optimize.ts";
import { listFormulaDetails, requireFormula } from "../../store/formulas.ts";
import { findIngredient, listIngredientDetails } from "../../store/ingredients.ts";
import { jsonReply, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";

export const optimizeRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/formulas/:id/optimize",
    summary: "The least-cost mix that meets the formula's limits, and how firm that answer is",
    description:
      "Solves the formula's least-cost linear program at today's prices and stock (or the what-if prices given): the saved composition at these prices, the optimized one, the saving, shadow prices of the binding limits with the range over which each holds, the price range over which each ingredient's inclusion stays optimal, the price below which each excluded candidate would enter, and, when no mix meets the limits, the conflicts to relax. Candidates: the composition, the names of its inclusion limits and `include`. Nothing is stored.",
    params: ID_PARAM,
    query: O.optimizeQuery,
    lookup: (ctx, params) => requireFormula(ctx.db, ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The optimization", schema: O.optimizeRead },
    errors: [400, 404],
    async handle(ctx, { params, query, found: formula }) {
      const ws = ctx.key.workspaceId;
      const { include, prices } = whatIfOf(ctx.rawQuery);
      const lookup = (name: string) => findIngredient(ctx.db, ws, name);
      for (const name of [...include, ...prices.keys()]) if (!lookup(name)) throw new ValidationError(`Unknown ingredient: ${name}`);
      const options: OptimizeOptions = { include, prices, includeOutOfStock: query.includeOutOfStock };
      const key = cacheKey("optimize", ws, params.id, include, [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), query.includeOutOfStock);
      const body = await ctx.cachedAsync(key, async () => {
        // The formula and ingredients are read after the solver is ready, in the turn that solves.
        const highs = await solverRuntime();
        return openBody(optimizeFormula(highs, requireFormula(ctx.db, ws, params.id), lookup, options));
      });
      return jsonReply(200, body.at(ctx.timestamp));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/reports/savings",
    summary: "The worklist: every formula optimized at today's prices and stock, by saving",
    description: "Each formula's saved composition and least-cost mix at today's prices and stock, ordered by saving per ton (descending), infeasible formulas last with a null optimizedCost and saving.",
    params: {},
    response: { status: 200, description: "The worklist", schema: O.savingsReport },
    errors: [],
    async handle(ctx) {
      const ws = ctx.key.workspaceId;
      const body = await ctx.cachedAsync(cacheKey("savings", ws), async () => {
        const highs = await solverRuntime();
        const ingredients = new Map(listIngredientDetails(ctx.db, ws).map((i) => [i.name, i]));
        const data = await savingsWorklist(highs, listFormulaDetails(ctx.db, ws), (name) => ingredients.get(name) ?? null);
        return openBody(data, { count: data.length });
      });
      return jsonReply(200, body.at(ctx.timestamp));
    },
  }),
];
