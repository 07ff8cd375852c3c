import { pricesQuery } from "../../schemas/history.ts";
import { createIngredientBody, ingredientQuery, updateIngredientBody, updatePriceBody } from "../../schemas/ingredients.ts";
import * as R from "../../schemas/responses.ts";
import type { IngredientFilters } from "../../store/ingredients.ts";
import { jsonReply, okBody, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute, type RequestContext } from "../route.ts";

/** The path parameter of every route that names one ingredient. */
export const NAME_PARAM = { name: "URL-encoded ingredient name, decoded once (`%2F` is a `/` inside the name)." };

const actorOf = (ctx: RequestContext) => ({ workspaceId: ctx.key.workspaceId, keyId: ctx.key.id, now: ctx.timestamp });
/** Cache key of a list: the workspace and the filters fully determine the body. */
const listKey = (kind: string, ctx: RequestContext, f: IngredientFilters) => cacheKey(kind, ctx.key.workspaceId, f.category, f.inStock);

/**
 * PUT /v1/ingredients/:name and PUT /v1/prices/:name are one operation (the spec says they behave
 * identically); the first also takes `co2e`, which the spec's price body does not have.
 */
const setPrice = <B extends typeof updatePriceBody | typeof updateIngredientBody>(path: "/v1/ingredients/:name" | "/v1/prices/:name", summary: string, body: B, description: string) =>
  defineRoute({
    method: "PUT",
    path,
    summary,
    description: `Fires \`price.updated\` when the price changes; a stock-only change or a repeated price fires nothing. Never creates.${description}`,
    params: NAME_PARAM,
    body,
    response: { status: 200, description: "Updated", schema: R.ingredientWritten },
    errors: [400, 403, 404, 413],
    handle: async (ctx, { params, body }) => jsonReply(200, okBody(await ctx.write.updatePrice(actorOf(ctx), params.name, body))),
  });

export const ingredientRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/ingredients",
    summary: "List all ingredients of the workspace",
    description: "Ordered by name (case-insensitive, ties by bytes). `nutrients` is a count in this view. `pools` lists every category of the workspace whatever the filters. No pagination.",
    params: {},
    query: ingredientQuery,
    response: { status: 200, description: "The ingredient list", schema: R.ingredientList },
    errors: [400],
    handle: (ctx, { query }) =>
      ctx.cached(listKey("ingredients", ctx, query), async () => {
        const data = await ctx.read.listIngredients(ctx.key.workspaceId, query);
        return openBody(data, { count: data.length, pools: await ctx.read.listPools(ctx.key.workspaceId) });
      }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/ingredients",
    summary: "Create an ingredient (write permission)",
    description: "Fires `ingredient.added`. The name is trimmed and must be unique in the workspace.",
    params: {},
    body: createIngredientBody,
    response: { status: 201, description: "Created", schema: R.ingredientWritten, headers: { Location: "URL of the new ingredient" } },
    errors: [400, 403, 409, 413],
    async handle(ctx, { body }) {
      const created = await ctx.write.createIngredient(actorOf(ctx), body);
      return jsonReply(201, okBody(created), { Location: `/v1/ingredients/${encodeURIComponent(created.name)}` });
    },
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/ingredients/:name",
    summary: "One ingredient with all nutrients",
    params: NAME_PARAM,
    response: { status: 200, description: "The ingredient", schema: R.ingredientRead },
    errors: [400, 404],
    handle: (ctx, { params }) =>
      ctx.cached(cacheKey("ingredient", ctx.key.workspaceId, params.name), async () => openBody(await ctx.read.requireIngredient(ctx.key.workspaceId, params.name))),
  }),
  setPrice(
    "/v1/ingredients/:name",
    "Update an ingredient's price and optionally its stock status and footprint (write permission)",
    updateIngredientBody,
    " `co2e` (kg CO2e per kg as fed): absent keeps the stored value, null clears it; a footprint change fires no event.",
  ),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/prices",
    summary: "Simplified price and stock list",
    description:
      "With `at`: the list as it stood then (ingredients whose first price entry is at or before `at`, each at its last entry at or before it; today's category). Filters apply to the rows shown.",
    params: {},
    query: pricesQuery,
    response: { status: 200, description: "The price list (no timestamp, as the spec has it)", schema: R.priceList },
    errors: [400],
    /** The price list has no `timestamp`: a quirk of the spec that integrators rely on. */
    handle: (ctx, { query: { at, ...filters } }) =>
      ctx.cached(
        cacheKey("prices", ctx.key.workspaceId, filters.category, filters.inStock, at),
        async () => {
          const data = at === undefined ? await ctx.read.listPrices(ctx.key.workspaceId, filters) : await ctx.read.pricesAt(ctx.key.workspaceId, at, filters);
          return openBody(data, { count: data.length });
        },
        { timestamp: false },
      ),
  }),
  setPrice("/v1/prices/:name", "Same operation as PUT /v1/ingredients/{name} (write permission), without `co2e`", updatePriceBody, ""),
];
