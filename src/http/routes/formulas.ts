import { isoTime } from "../../domain/time.ts";
import { formulaQuery } from "../../schemas/formulas.ts";
import { parseInput } from "../../schemas/problem.ts";
import { listFormulas, requireFormula } from "../../store/formulas.ts";
import { jsonResponse, okBody } from "../envelope.ts";
import type { Handler, Route } from "../router.ts";

/** Summaries only (the spec's list item), newest first. */
const list: Handler = (ctx) => {
  const data = listFormulas(ctx.db, ctx.key.workspaceId, parseInput(formulaQuery, Object.fromEntries(ctx.query)));
  return jsonResponse(200, okBody(data, { count: data.length, timestamp: isoTime(ctx.clock()) }));
};

const detail: Handler = (ctx) => jsonResponse(200, okBody(requireFormula(ctx.db, ctx.key.workspaceId, ctx.params[0]!), { timestamp: isoTime(ctx.clock()) }));

/** Read-only, as the spec says: formulas enter through `feedbase import formulas`, so any other method is 405. */
export const formulaRoutes: Route[] = [
  { path: "/v1/formulas", methods: { GET: list } },
  { path: "/v1/formulas/:id", methods: { GET: detail } },
];
