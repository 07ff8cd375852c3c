import { nutrientKey } from "../../domain/nutrient-file.ts";
import { nutrientDefinitionBody, nutrientList, nutrientRead, nutrientWritten } from "../../schemas/nutrients.ts";
import { jsonReply, okBody, openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";

const KEY_PARAM = { key: "URL-encoded nutrient key, decoded once." };

/** Nutrient definitions: what each key means, its unit and basis (docs/decisions.md#nutrients-with-units). */
export const nutrientRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/nutrients",
    summary: "Every nutrient key with its name, unit and basis",
    description: "The workspace's definitions and, with `name`, `unit` and `basis` null, every key its ingredients use without one; by key (bytes).",
    params: {},
    response: { status: 200, description: "The nutrient definitions", schema: nutrientList },
    errors: [],
    handle: (ctx) => ctx.cached(cacheKey("nutrients", ctx.key.workspaceId), async () => openBody(await ctx.read.listNutrients(ctx.key.workspaceId))),
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/nutrients/:key",
    summary: "One nutrient key's definition",
    description: "404 when the key is neither defined nor used by an ingredient; a used key without a definition answers with nulls.",
    params: KEY_PARAM,
    response: { status: 200, description: "The definition", schema: nutrientRead },
    errors: [400, 404],
    handle: (ctx, { params }) => ctx.cached(cacheKey("nutrient", ctx.key.workspaceId, params.key), async () => openBody(await ctx.read.requireNutrient(ctx.key.workspaceId, params.key))),
  }),
  defineRoute({
    method: "PUT",
    path: "/v1/nutrients/:key",
    summary: "Define a nutrient key, or replace its definition (write permission)",
    description: "The whole definition: `name`, `unit` and `basis` (`as-fed` or `dry-matter`). Fires no event.",
    params: KEY_PARAM,
    body: nutrientDefinitionBody,
    response: {
      status: 200,
      description: "Replaced",
      schema: nutrientWritten,
      created: { description: "Defined (the key had no definition)", headers: { Location: "URL of the definition" } },
    },
    errors: [400, 403, 413],
    async handle(ctx, { params, body }) {
      const key = nutrientKey(params.key, "key");
      const { created, definition } = await ctx.write.putNutrient(ctx.key.workspaceId, key, body);
      return created ? jsonReply(201, okBody(definition), { Location: `/v1/nutrients/${encodeURIComponent(key)}` }) : jsonReply(200, okBody(definition));
    },
  }),
];
