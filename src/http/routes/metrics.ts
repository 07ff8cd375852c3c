import * as R from "../../schemas/responses.ts";
import { HttpError } from "../errors.ts";
import { defineRoute } from "../route.ts";

/** The exposition format's own content type. */
const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

export const metricsRoutes = [
  defineRoute({
    method: "GET",
    path: "/metrics",
    access: "open",
    quiet: true,
    summary: "Prometheus metrics, when serve runs with --metrics; with --metrics-token-file, only for `Authorization: Bearer <token>`",
    description: "404 while serve runs without --metrics. Counters since start, gauges read when scraped; docs/operations.md, \"Metrics\", lists them.",
    params: {},
    response: { status: 200, description: "The metrics in the Prometheus text format 0.0.4", schema: R.metricsText, contentType: "text/plain" },
    errors: [401, 404],
    handle: async (ctx) => {
      if (ctx.metrics === null) throw new HttpError(404, "Not found");
      if (!ctx.metrics.authorized(ctx.req.headers.get("authorization"))) {
        throw new HttpError(401, "Missing or wrong bearer token for /metrics", { "WWW-Authenticate": 'Bearer realm="feedbase metrics"' });
      }
      return { status: 200, body: await ctx.metrics.render(), headers: { "Content-Type": PROMETHEUS_TEXT } };
    },
  }),
];
