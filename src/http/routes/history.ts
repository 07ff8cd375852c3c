/**
 * Price history and formula costs (docs/decisions.md, "Price history" and "Formula costs"): reads
 * only, cached per data generation like the others. An unknown name or id is 404 before any 400 for
 * the query (DESIGN's order of checks: existence of the path's thing, then its parameters).
 */
import type { z } from "zod";
import { costChangesQuery, costQuery, historyQuery } from "../../schemas/history.ts";
import { parseInput } from "../../schemas/problem.ts";
import { costChanges, formulaCost } from "../../store/costs.ts";
import { requireFormula } from "../../store/formulas.ts";
import { requireIngredient } from "../../store/ingredients.ts";
import { priceHistory } from "../../store/price-history.ts";
import { jsonReply, openBody, REQUEST_TIME } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import type { Handler, RequestContext } from "../router.ts";

/** The query, validated only after `exists` has had its say, so a 404 wins over a 400. */
function queryOf<S extends z.ZodType>(ctx: RequestContext, schema: S, exists: () => unknown = () => {}): z.output<S> {
  try {
    return parseInput(schema, ctx.query.size === 0 ? {} : Object.fromEntries(ctx.query));
  } catch (error) {
    exists();
    throw error;
  }
}

/** GET /v1/prices/:name: current price and stock with the history, newest first; untimed like the price list. */
export const priceHistoryRead: Handler = (ctx) => {
  const name = ctx.params[0]!;
  const workspaceId = ctx.key.workspaceId;
  const range = queryOf(ctx, historyQuery, () => requireIngredient(ctx.db, workspaceId, name));
  const body = ctx.cached(cacheKey("price-history", workspaceId, name, range.from, range.to), () => openBody(priceHistory(ctx.db, workspaceId, name, range)));
  return jsonReply(200, body.untimed());
};

/** GET /v1/formulas/:id/cost: at the prices of `at`, or today's (then `at` is the request's time). */
export const formulaCostRead: Handler = (ctx) => {
  const id = ctx.params[0]!;
  const workspaceId = ctx.key.workspaceId;
  const { at } = queryOf(ctx, costQuery, () => requireFormula(ctx.db, workspaceId, id));
  const body = ctx.cached(cacheKey("formula-cost", workspaceId, id, at), () => openBody(formulaCost(ctx.db, workspaceId, id, at ?? null, at ?? REQUEST_TIME)));
  return jsonReply(200, body.at(ctx.timestamp));
};

/** GET /v1/reports/cost-changes: the formulas that moved since `since` (or since saved), with their drivers. */
export const costChangesRead: Handler = (ctx) => {
  const { since } = queryOf(ctx, costChangesQuery);
  const body = ctx.cached(cacheKey("cost-changes", ctx.key.workspaceId, since), () => {
    const data = costChanges(ctx.db, ctx.key.workspaceId, since ?? null);
    return openBody(data, { count: data.length, since: since ?? null });
  });
  return jsonReply(200, body.at(ctx.timestamp));
};
