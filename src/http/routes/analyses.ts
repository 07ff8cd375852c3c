/**
 * The mill's lab analyses of an ingredient (docs/analyses.md): recorded with a write key, listed with
 * their statistics by any key. The listing is cached per data generation like every read.
 */
import { analysisInput } from "../../domain/analyses.ts";
import { analysesQuery, analysisBody, analysisList, analysisWritten } from "../../schemas/analyses.ts";
import { jsonReply, okBody, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";
import { NAME_PARAM } from "./ingredients.ts";

export const analysisRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/ingredients/:name/analyses",
    summary: "Record a lab analysis of an ingredient (write permission)",
    description:
      "A lab or NIR result: `nutrients` (1 to 500 keys, values as an ingredient's), `sampledAt` (default now; not in the future: 400 `sampledAt must not be in the future`), `lot` and `lab` (up to 100 characters). The ingredient's own values are unchanged: analyses give the spread the confidence optimization uses. Fires the opt-in `analysis.added`. No Location header.",
    params: NAME_PARAM,
    body: analysisBody,
    response: { status: 201, description: "Recorded", schema: analysisWritten },
    errors: [400, 403, 404, 413],
    async handle(ctx, { params, body }) {
      const actor = { workspaceId: ctx.key.workspaceId, keyId: ctx.key.id, now: ctx.timestamp };
      return jsonReply(201, okBody(await ctx.write.addAnalysis(actor, params.name, analysisInput(body, ctx.timestamp))));
    },
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/ingredients/:name/analyses",
    summary: "An ingredient's lab analyses and their statistics",
    description:
      "Newest `sampledAt` first (equal ones: newest recorded first), optionally only those sampled from `from` (inclusive) to `to` (exclusive). `stats` gives per nutrient key the count of analyses carrying it, mean, sample standard deviation (n − 1; null below 2), min, max and the ingredient's own (book) value (null when it has none), to 4 decimals.",
    params: NAME_PARAM,
    query: analysesQuery,
    response: { status: 200, description: "The analyses", schema: analysisList },
    errors: [400, 404],
    handle: (ctx, { params, query }) =>
      ctx.cached(cacheKey("analyses", ctx.key.workspaceId, params.name, query.from, query.to), async () =>
        openBody(await ctx.read.listAnalyses(ctx.key.workspaceId, params.name, { from: query.from, to: query.to })),
      ),
  }),
];
