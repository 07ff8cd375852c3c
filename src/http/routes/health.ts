import * as R from "../../schemas/responses.ts";
import { VERSION } from "../../version.ts";
import { errorBody, healthBody, jsonReply } from "../envelope.ts";
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
  defineRoute({
    method: "GET",
    path: "/readyz",
    access: "open",
    quiet: true,
    summary: "Readiness for load balancers: `ready`, without a key, when the database answers a read, a write can commit, the delivery loop ran in the last 5 s and the disk has room",
    description:
      "Otherwise 503: the error object with `failed`, the failed checks (`database read`, `write commit`, `storage full`, `delivery loop`). Either way the `X-Solver-Pool` header reports the solver pool: `workers=2 alive=2 busy=1 queued=0 max-queue=64 started=17` (alive: HiGHS loaded; busy: solving; queued: waiting for a worker; started: tasks handed to a worker since the start).",
    params: {},
    response: { status: 200, description: "Ready", schema: R.readiness, contentType: "text/plain" },
    errors: [503],
    handle: async (ctx) => {
      const failed = await ctx.readiness();
      const solver = ctx.solver.stats();
      const pool = { "X-Solver-Pool": `workers=${solver.workers} alive=${solver.alive} busy=${solver.busy} queued=${solver.queued} max-queue=${solver.maxQueue} started=${solver.started}` };
      if (failed.length === 0) return { status: 200, body: "ready", headers: { "Content-Type": "text/plain", ...pool } };
      return jsonReply(503, errorBody(`Not ready: ${failed.join(", ")}`, { failed }), pool);
    },
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
