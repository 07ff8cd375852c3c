/**
 * The cost–CO2e frontier over HTTP (docs/decisions.md#carbon-footprint): a read (nothing is stored),
 * cached per data generation like every read, with the optimization's candidates and what-ifs.
 */
import { frontierInput } from "../../optimize/frontier-task.ts";
import type { OptimizeOptions } from "../../optimize/result.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import * as Fr from "../../schemas/frontier.ts";
import { openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";
import { byName, candidateIngredients } from "./optimize.ts";

export const frontierRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/frontier",
    summary: "The cost–CO2e frontier: the cheapest mix at each footprint, and the cost of each tonne of CO2e avoided",
    description:
      "From the least-cost mix (the least CO2e among least-cost mixes) to the least-CO2e mix, `points` mixes evenly spaced in kg CO2e per tonne of feed, each the cheapest at its footprint, and between consecutive points the cost per tonne of CO2e avoided. Candidates and what-ifs as for the optimization; candidates of unknown `co2e` are held at 0 and listed in `heldOut`. Nothing is stored.",
    params: ID_PARAM,
    query: Fr.frontierQuery,
    lookup: (ctx, params) => ctx.read.requireFormulaId(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The frontier", schema: Fr.frontierRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const { include, prices } = whatIfOf(ctx.rawQuery);
      const asked: OptimizeOptions = { include, prices, includeOutOfStock: query.includeOutOfStock };
      return ctx.cached(cacheKey("frontier", ws, params.id, query.points, include, [...prices].sort(byName), query.includeOutOfStock, query.candidates), async () => {
        const formula = await ctx.read.requireFormula(ws, params.id);
        const { found, options } = await candidateIngredients(ctx.read, ws, formula, asked, query.candidates);
        return openBodyJson(await ctx.solver.runJson("frontier", frontierInput(formula, (name) => found.get(name) ?? null, options, query.points)));
      });
    },
  }),
];
