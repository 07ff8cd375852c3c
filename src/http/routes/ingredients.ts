import { pricesQuery } from "../../schemas/history.ts";
import { createIngredientBody, ingredientQuery, updatePriceBody } from "../../schemas/ingredients.ts";
import { parseInput } from "../../schemas/problem.ts";
import { createIngredient, listIngredients, listPools, listPrices, requireIngredient, updatePrice, type IngredientFilters } from "../../store/ingredients.ts";
import { pricesAt } from "../../store/price-history.ts";
import { readJsonObject } from "../body.ts";
import { jsonReply, okBody, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import type { Handler, RequestContext, Route } from "../router.ts";
import { priceHistoryRead } from "./history.ts";

const filtersOf = (ctx: RequestContext): IngredientFilters => (ctx.query.size === 0 ? {} : parseInput(ingredientQuery, Object.fromEntries(ctx.query)));
const actorOf = (ctx: RequestContext) => ({ workspaceId: ctx.key.workspaceId, keyId: ctx.key.id, now: ctx.timestamp });
/** Cache key of a list: the workspace and the filters fully determine the body. */
const listKey = (kind: string, ctx: RequestContext, f: IngredientFilters) => cacheKey(kind, ctx.key.workspaceId, f.category, f.inStock);

const list: Handler = (ctx) => {
  const filters = filtersOf(ctx);
  const body = ctx.cached(listKey("ingredients", ctx, filters), () => {
    const data = listIngredients(ctx.db, ctx.key.workspaceId, filters);
    return openBody(data, { count: data.length, pools: listPools(ctx.db, ctx.key.workspaceId) });
  });
  return jsonReply(200, body.at(ctx.timestamp));
};

const detail: Handler = (ctx) => {
  const name = ctx.params[0]!;
  const body = ctx.cached(cacheKey("ingredient", ctx.key.workspaceId, name), () => openBody(requireIngredient(ctx.db, ctx.key.workspaceId, name)));
  return jsonReply(200, body.at(ctx.timestamp));
};

const create: Handler = async (ctx) => {
  const input = parseInput(createIngredientBody, await readJsonObject(ctx.req));
  const created = await ctx.write(() => createIngredient(ctx.db, actorOf(ctx), input));
  return jsonReply(201, okBody(created), { Location: `/v1/ingredients/${encodeURIComponent(created.name)}` });
};

/** PUT /v1/ingredients/:name and PUT /v1/prices/:name are one operation (the spec says they behave identically). */
const setPrice: Handler = async (ctx) => {
  const change = parseInput(updatePriceBody, await readJsonObject(ctx.req));
  const updated = await ctx.write(() => updatePrice(ctx.db, actorOf(ctx), ctx.params[0]!, change));
  return jsonReply(200, okBody(updated));
};

/** The price list has no `timestamp`: a quirk of the spec that integrators rely on. `?at=`: as it stood then. */
const prices: Handler = (ctx) => {
  const { at, ...filters }: { at?: string | undefined } & IngredientFilters = ctx.query.size === 0 ? {} : parseInput(pricesQuery, Object.fromEntries(ctx.query));
  const body = ctx.cached(cacheKey("prices", ctx.key.workspaceId, filters.category, filters.inStock, at), () => {
    const data = at === undefined ? listPrices(ctx.db, ctx.key.workspaceId, filters) : pricesAt(ctx.db, ctx.key.workspaceId, at, filters);
    return openBody(data, { count: data.length });
  });
  return jsonReply(200, body.untimed());
};

export const ingredientRoutes: Route[] = [
  { path: "/v1/ingredients", methods: { GET: list, POST: create } },
  { path: "/v1/ingredients/:name", methods: { GET: detail, PUT: setPrice } },
  { path: "/v1/prices", methods: { GET: prices } },
  { path: "/v1/prices/:name", methods: { GET: priceHistoryRead, PUT: setPrice } },
];
