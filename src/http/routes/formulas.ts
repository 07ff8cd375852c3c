import * as F from "../../schemas/formulas.ts";
import { openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";

/** The path parameter of every route that names one formula. */
export const ID_PARAM = { id: "Formula id." };

/** Read-only, as the spec says: formulas enter through `feedbase import formulas`, so any other method is 405. */
export const formulaRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas",
    summary: "List saved formulas (summaries)",
    description: "Newest first (`createdAt` descending, then `id` by bytes). Read-only: formulas enter through `feedbase import formulas`. No pagination.",
    params: {},
    query: F.formulaQuery,
    response: { status: 200, description: "The formula list", schema: F.formulaList },
    errors: [],
    handle: (ctx, { query }) =>
      ctx.cached(cacheKey("formulas", ctx.key.workspaceId, query.species, query.subcategory), async () => {
        const data = await ctx.read.listFormulas(ctx.key.workspaceId, query);
        return openBody(data, { count: data.length });
      }),
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id",
    summary: "One formula: composition, achieved nutrients and constraints",
    description: "Amounts in kg (3 decimals), prices per ton, costs (2 decimals), `totalCost` from the unrounded costs, achieved nutrients (4 decimals); all frozen at import.",
    params: ID_PARAM,
    response: { status: 200, description: "The formula", schema: F.formulaRead },
    errors: [400, 404],
    handle: (ctx, { params }) =>
      ctx.cached(cacheKey("formula", ctx.key.workspaceId, params.id), async () => {
        const detail = await ctx.read.requireFormula(ctx.key.workspaceId, params.id);
        return openBody({ ...detail, ...(await ctx.read.formulaFootprint(ctx.key.workspaceId, params.id)) });
      }),
  }),
];
