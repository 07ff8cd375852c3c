import { isoTime } from "../../domain/time.ts";
import { createIngredientBody, ingredientQuery, updatePriceBody } from "../../schemas/ingredients.ts";
import { parseInput } from "../../schemas/problem.ts";
import { createIngredient, listIngredients, listPools, listPrices, requireIngredient, updatePrice } from "../../store/ingredients.ts";
import { readJsonObject } from "../body.ts";
import { jsonResponse, okBody } from "../envelope.ts";
import type { Handler, RequestContext, Route } from "../router.ts";

const filtersOf = (ctx: RequestContext) => parseInput(ingredientQuery, Object.fromEntries(ctx.query));
const actorOf = (ctx: RequestContext) => ({ workspaceId: ctx.key.workspaceId, keyId: ctx.key.id, now: isoTime(ctx.clock()) });

const list: Handler = (ctx) => {
  const data = listIngredients(ctx.db, ctx.key.workspaceId, filtersOf(ctx));
  return jsonResponse(200, okBody(data, { count: data.length, pools: listPools(ctx.db, ctx.key.workspaceId), timestamp: isoTime(ctx.clock()) }));
};

const detail: Handler = (ctx) =>
  jsonResponse(200, okBody(requireIngredient(ctx.db, ctx.key.workspaceId, ctx.params[0]!), { timestamp: isoTime(ctx.clock()) }));

const create: Handler = async (ctx) => {
  const input = parseInput(createIngredientBody, await readJsonObject(ctx.req));
  const created = createIngredient(ctx.db, actorOf(ctx), input);
  ctx.notifyCommit();
  return jsonResponse(201, okBody(created), { Location: `/v1/ingredients/${encodeURIComponent(created.name)}` });
};

/** PUT /v1/ingredients/:name and PUT /v1/prices/:name are one operation (the spec says they behave identically). */
const setPrice: Handler = async (ctx) => {
  const change = parseInput(updatePriceBody, await readJsonObject(ctx.req));
  const updated = updatePrice(ctx.db, actorOf(ctx), ctx.params[0]!, change);
  ctx.notifyCommit();
  return jsonResponse(200, okBody(updated));
};

/** The price list has no `timestamp`: a quirk of the spec that integrators rely on. */
const prices: Handler = (ctx) => {
  const data = listPrices(ctx.db, ctx.key.workspaceId, filtersOf(ctx));
  return jsonResponse(200, okBody(data, { count: data.length }));
};

export const ingredientRoutes: Route[] = [
  { path: "/v1/ingredients", methods: { GET: list, POST: create } },
  { path: "/v1/ingredients/:name", methods: { GET: detail, PUT: setPrice } },
  { path: "/v1/prices", methods: { GET: prices } },
  { path: "/v1/prices/:name", methods: { PUT: setPrice } },
];
