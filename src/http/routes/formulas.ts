import * as F from "../../schemas/formulas.ts";
import { formulaPutBody, formulaWritten } from "../../schemas/formula-put.ts";
import { ValidationError } from "../../domain/errors.ts";
import { jsonReply, okBody, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";

/** The path parameter of every route that names one formula. */
export const ID_PARAM = { id: "Formula id." };

/** Read and written whole: PUT takes one formula in the import's shape (`feedbase import formulas` takes many). */
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
  defineRoute({
    method: "PUT",
    path: "/v1/formulas/:id",
    summary: "Create or replace one formula (write permission)",
    description:
      "One formula in the import shape, without `id` (the path gives it). Checked and computed as `feedbase import formulas` does; a replace keeps `createdAt` unless the body gives one. `warnings` lists the limits the saved composition misses, as the import warns. Fires the opt-in `formula.updated`.",
    params: ID_PARAM,
    body: formulaPutBody,
    response: {
      status: 200,
      description: "Replaced",
      schema: formulaWritten,
      created: { description: "Created (the id was new)", headers: { Location: "URL of the formula" } },
    },
    errors: [400, 403, 413],
    async handle(ctx, { params, body }) {
      if (!F.FORMULA_ID.test(params.id)) throw new ValidationError("id must be 1 to 64 of A-Z a-z 0-9 _ . -");
      const { created, formula, warnings } = await ctx.write.putFormula({ workspaceId: ctx.key.workspaceId, keyId: ctx.key.id, now: ctx.timestamp }, params.id, body);
      // The detail as GET shows it, footprint included, then the warnings.
      const reply = okBody({ ...formula, ...(await ctx.read.formulaFootprint(ctx.key.workspaceId, formula.id)), warnings });
      return created ? jsonReply(201, reply, { Location: `/v1/formulas/${encodeURIComponent(formula.id)}` }) : jsonReply(200, reply);
    },
  }),
];
