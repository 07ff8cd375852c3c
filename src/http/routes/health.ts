import * as R from "../../schemas/responses.ts";
import { VERSION } from "../../version.ts";
import { healthBody, jsonReply } from "../envelope.ts";
import { defineRoute } from "../route.ts";

export const healthRoutes = [
  defineRoute({
    method: "GET",
    path: "/healthz",
    access: "open",
    quiet: true,
    summary: "Liveness for process supervisors: `ok`, without a key",
    params: {},
    response: { status: 200, description: "The process answers", schema: R.liveness, contentType: "text/plain" },
    errors: [],
    handle: () => ({ status: 200, body: "ok", headers: { "Content-Type": "text/plain" } }),
  }),
  /** The spec's `{status, version, timestamp}` (no `data`). */
  defineRoute({
    method: "GET",
    path: "/v1/health",
    summary: "Service status and version",
    params: {},
    response: { status: 200, description: "Healthy", schema: R.health },
    errors: [],
    handle: (ctx) => jsonReply(200, healthBody(VERSION, ctx.timestamp)),
  }),
];
