/**
 * Price sweeps over HTTP (docs/decisions.md#price-sweeps): a read (nothing is stored), cached per data
 * generation like every read.
 */
import type { OptimizeOptions } from "../../optimize/result.ts";
import { sweepRange } from "../../optimize/sweep-params.ts";
import { sweepInput } from "../../optimize/sweep-task.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import * as S from "../../schemas/sweep.ts";
import { openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";
import { ingredientsFor } from "./optimize.ts";

const byName = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);

export const sweepRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/sweep",
    summary: "How the best mix moves with one price: percent and cost at evenly spaced prices, and every breakpoint",
    description:
      "The least-cost mix re-optimized as the price of one candidate moves from `from` to `to`: at each of `points` evenly spaced prices the optimum's percent of that ingredient and cost per ton, and every price in between at which the optimal percent changes, found exactly from the price ranges of the optima met (not by bisection). Candidates, `include`, `price` and `includeOutOfStock` as for the optimization; the swept ingredient must be a candidate. Nothing is stored.",
    params: ID_PARAM,
    query: S.sweepQuery,
    lookup: (ctx, params) => ctx.read.requireFormulaId(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The sweep", schema: S.sweepRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const range = sweepRange(query);
      const { include, prices } = whatIfOf(ctx.rawQuery);
      const options: OptimizeOptions = { include, prices, includeOutOfStock: query.includeOutOfStock };
      return ctx.cached(cacheKey("sweep", ws, params.id, range.ingredient, range.from, range.to, range.points, include, [...prices].sort(byName), query.includeOutOfStock), async () => {
        const formula = await ctx.read.requireFormula(ws, params.id);
        const ingredients = await ingredientsFor(ctx.read, ws, formula, { ...options, include: [...include, range.ingredient] });
        return openBodyJson(await ctx.solver.runJson("sweep", sweepInput(formula, (name) => ingredients.get(name) ?? null, options, range)));
      });
    },
  }),
];
