/** GET /v1/key: what the calling key may do (the console's sign-in asks it; integrators may too). */
import { keyResponse } from "../../schemas/console.ts";
import { jsonReply, okBody } from "../envelope.ts";
import { HttpError } from "../errors.ts";
import { defineRoute } from "../route.ts";

export const keyRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/key",
    summary: "What the calling key may do",
    description: "The key's id, workspace, write permission, rate limit and label: never the key. Counted against the key's limit like every /v1 request.",
    params: {},
    response: { status: 200, description: "The key", schema: keyResponse },
    errors: [],
    // Not through ctx.cached: the answered-GET cache is per workspace, and this answer is the key's own.
    handle: async (ctx) => {
      const own = (await ctx.read.listKeys(ctx.key.workspaceId)).find((k) => k.id === ctx.key.id);
      // Deleted between authentication and this read: as if it had not been found.
      if (!own) throw new HttpError(401, "Invalid or inactive API key");
      return jsonReply(200, okBody({ id: own.id, workspace: own.workspace, write: own.write, rateLimit: own.rateLimit, label: own.label }, { timestamp: ctx.timestamp }));
    },
  }),
];
