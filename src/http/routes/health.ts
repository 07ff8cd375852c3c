import { VERSION } from "../../version.ts";
import { healthBody, jsonReply } from "../envelope.ts";
import type { Route } from "../router.ts";

/** GET /v1/health: the spec's `{status, version, timestamp}` (no `data`). */
export const healthRoutes: Route[] = [{ path: "/v1/health", methods: { GET: (ctx) => jsonReply(200, healthBody(VERSION, ctx.timestamp)) } }];
