/**
 * Optimizing to a confidence level over HTTP (docs/decisions.md#optimizing-to-a-confidence-level):
 * `confidence` on GET /v1/formulas/:id/optimize (answered here for the optimize route), and the cost
 * against confidence curve, GET /v1/formulas/:id/confidence. Reads, cached per data generation; the sds
 * come from the workspace's lab analyses in the window, the solves run in the solver pool.
 */
import { optimizeInput } from "../../optimize/optimize-task.ts";
import type { OptimizeOptions } from "../../optimize/result.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import * as C from "../../schemas/confidence.ts";
import { openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";
import { byName, candidateIngredients } from "./optimize.ts";

export const confidenceRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/confidence",
    summary: "What each extra point of assurance costs: the least-cost mix at evenly spaced confidence levels",
    description:
      "At `points` probabilities evenly spaced from `from` to `to` (each solved at its exact value), the cost per tonne and composition of the least-cost mix that meets every nutrient limit with at least that probability, each ingredient's values varying as its lab analyses since `analysesSince` do (sd of a key with at least 3 analyses, else 0). A level no mix reaches has `costPerTon` and `ingredients` null. Candidates and what-ifs as for the optimization. Nothing is stored.",
    params: ID_PARAM,
    query: C.curveQuery,
    lookup: (ctx, params) => ctx.read.requireFormulaId(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The curve", schema: C.curveRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const { include, prices } = whatIfOf(ctx.rawQuery);
      const asked: OptimizeOptions = { include, prices, includeOutOfStock: query.includeOutOfStock };
      const since = C.sinceOrDefault(query.analysesSince, ctx.clock());
      const key = cacheKey("confidence", ws, params.id, query.from, query.to, query.points, since, include, [...prices].sort(byName), query.includeOutOfStock, query.candidates);
      return ctx.cached(key, async () => {
        const formula = await ctx.read.requireFormula(ws, params.id);
        const { found, options } = await candidateIngredients(ctx.read, ws, formula, asked, query.candidates);
        const input = optimizeInput(formula, (name) => found.get(name) ?? null, options);
        const sds = await ctx.read.variability(ws, input.ingredients.map((i) => i.name), since);
        return openBodyJson(await ctx.solver.runJson("confidenceCurve", { ...input, sds, from: query.from, to: query.to, points: query.points }));
      });
    },
  }),
];
