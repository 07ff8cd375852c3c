import { isoTime } from "../../domain/time.ts";
import { VERSION } from "../../version.ts";
import { jsonResponse } from "../envelope.ts";
import type { Route } from "../router.ts";

/** GET /v1/health: the spec's `{status, version, timestamp}` (no `data`). */
export const healthRoutes: Route[] = [
  {
    path: "/v1/health",
    methods: {
      GET: ({ clock }) =>
        jsonResponse(200, JSON.stringify({ status: "ok", version: VERSION, timestamp: isoTime(clock()) })),
    },
  },
];
