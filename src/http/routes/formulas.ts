import { formulaQuery } from "../../schemas/formulas.ts";
import { parseInput } from "../../schemas/problem.ts";
import { listFormulas, requireFormula } from "../../store/formulas.ts";
import { jsonReply, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import type { Handler, Route } from "../router.ts";
import { costChangesRead, formulaCostRead } from "./history.ts";

/** Summaries only (the spec's list item), newest first. */
const list: Handler = (ctx) => {
  const filters = ctx.query.size === 0 ? {} : parseInput(formulaQuery, Object.fromEntries(ctx.query));
  const body = ctx.cached(cacheKey("formulas", ctx.key.workspaceId, filters.species, filters.subcategory), () => {
    const data = listFormulas(ctx.db, ctx.key.workspaceId, filters);
    return openBody(data, { count: data.length });
  });
  return jsonReply(200, body.at(ctx.timestamp));
};

const detail: Handler = (ctx) => {
  const id = ctx.params[0]!;
  const body = ctx.cached(cacheKey("formula", ctx.key.workspaceId, id), () => openBody(requireFormula(ctx.db, ctx.key.workspaceId, id)));
  return jsonReply(200, body.at(ctx.timestamp));
};

/** Read-only, as the spec says: formulas enter through `feedbase import formulas`, so any other method is 405. */
export const formulaRoutes: Route[] = [
  { path: "/v1/formulas", methods: { GET: list } },
  { path: "/v1/formulas/:id", methods: { GET: detail } },
  { path: "/v1/formulas/:id/cost", methods: { GET: formulaCostRead } },
  { path: "/v1/reports/cost-changes", methods: { GET: costChangesRead } },
];
