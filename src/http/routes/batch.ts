/**
 * Batch sheets over HTTP (docs/decisions.md#batch-sheets): a read (nothing is stored), cached per data
 * generation like every read.
 */
import { batchScales } from "../../optimize/batch-params.ts";
import * as B from "../../schemas/batch.ts";
import { openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";
import { batchInput } from "../../optimize/batch-input.ts";

export const batchRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/batch",
    summary: "A batch sheet: amounts the mixer's scales can weigh, keeping every limit",
    description:
      "The saved composition's ingredients in whole steps of the macro scale (`resolution`) and, for lines whose exact amount is below `microBelow` kg, of the micro scale (`microResolution`), summing to `size` kg and keeping every nutrient, inclusion and ratio limit exactly; the cheapest such amounts at today's prices (a mixed-integer program), then the nearest to the exact amounts, then more for the name that sorts first. When no such amounts exist: `status: infeasible`, the nearest amounts and the limits they miss.",
    params: ID_PARAM,
    query: B.batchQuery,
    lookup: (ctx, params) => ctx.read.requireFormulaId(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The batch sheet", schema: B.batchRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const scales = batchScales(query);
      return ctx.cached(cacheKey("batch", ws, params.id, scales.size, scales.resolution, scales.micro?.resolution ?? null, scales.micro?.below ?? null), async () => {
        const formula = await ctx.read.requireFormula(ws, params.id);
        const input = await batchInput(formula, scales, (name) => ctx.read.findIngredient(ws, name));
        return openBodyJson(await ctx.solver.runJson("batchSheet", input));
      });
    },
  }),
];
