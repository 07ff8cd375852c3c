/**
 * Price history and formula costs (docs/decisions.md#price-history-and-formula-costs): reads only,
 * cached per data generation like the others. The path's ingredient or formula is looked up before the
 * query is validated, so an unknown name or id is 404 before a bad instant's 400.
 */
import * as H from "../../schemas/history.ts";
import { openBody, REQUEST_TIME } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { ID_PARAM } from "./formulas.ts";
import { NAME_PARAM } from "./ingredients.ts";

/** GET on /v1/prices/:name (its PUT is in ingredients.ts): the path serves GET, HEAD and PUT. */
export const priceHistoryRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/prices/:name",
    summary: "An ingredient's price history",
    description: "Current price and stock, and every recorded change of either (API, import, demo), newest first; no timestamp, like the price list.",
    params: NAME_PARAM,
    query: H.historyQuery,
    lookup: (ctx, params) => ctx.read.requireIngredient(ctx.key.workspaceId, params.name),
    response: { status: 200, description: "The history", schema: H.priceHistoryResponse },
    errors: [400, 404],
    handle: (ctx, { params, query }) =>
      ctx.cached(
        cacheKey("price-history", ctx.key.workspaceId, params.name, query.from, query.to),
        async () => openBody(await ctx.read.priceHistory(ctx.key.workspaceId, params.name, query)),
        { timestamp: false },
      ),
  }),
];

/** Costs of saved formulas at other prices. */
export const costRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/formulas/:id/cost",
    summary: "A formula recosted at the prices of an instant",
    description: "The saved composition at the prices in effect at `at` (today's when absent; `at` then echoes the request's time), row by row against the saved prices.",
    params: ID_PARAM,
    query: H.costQuery,
    lookup: (ctx, params) => ctx.read.requireFormula(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The cost", schema: H.formulaCostResponse },
    errors: [400, 404],
    handle: (ctx, { params, query: { at } }) =>
      ctx.cached(cacheKey("formula-cost", ctx.key.workspaceId, params.id, at), async () =>
        openBody(await ctx.read.formulaCost(ctx.key.workspaceId, params.id, at ?? null, at ?? REQUEST_TIME)),
      ),
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/reports/cost-changes",
    summary: "Formulas whose cost moved, with the prices that moved them",
    description: "Every formula whose cost at current prices differs (at 2 decimals) from its cost at `since`, or from its saved totalCost when `since` is absent.",
    params: {},
    query: H.costChangesQuery,
    response: { status: 200, description: "The report", schema: H.costChangesResponse },
    errors: [400],
    handle: (ctx, { query: { since } }) =>
      ctx.cached(cacheKey("cost-changes", ctx.key.workspaceId, since), async () => {
        const data = await ctx.read.costChanges(ctx.key.workspaceId, since ?? null);
        return openBody(data, { count: data.length, since: since ?? null });
      }),
  }),
];
