/**
 * Production plans over HTTP (docs/decisions.md#production-plans): stored per workspace, written with
 * PUT (an ERP sends next month's tonnage), read and optimized with read keys (the optimization is cached
 * per data generation like every read, and runs in the solver pool).
 */
import { z } from "zod";
import { NotFoundError, ValidationError } from "../../domain/errors.ts";
import { checkPlanReferences, parsePlanBody } from "../../domain/plan-rules.ts";
import { planInput } from "../../optimize/plan-input.ts";
import { whatIfOf } from "../../optimize/what-if.ts";
import { candidatesParam, maxCo2eParameter } from "../../schemas/optimize.ts";
import * as P from "../../schemas/plans.ts";
import { jsonReply, okBody, openBody, openBodyJson } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";

const PLAN_PARAM = { id: "Plan id (1 to 64 of A-Z a-z 0-9 _ . -)." };
const byName = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);
/** Checked by hand (src/domain/plan-rules.ts) so each answer names its field as `lines[2].tons`; documented here. */
const planBodyDoc = z.record(z.string(), z.unknown()).meta({ id: "PlanBody", description: "`{name, lines: [{formula, tons}], supply?: [{name, minTons, maxTons}]}`: lines 1 to 500, each an existing formula once, tons > 0 and <= 1e7; supply 0 to 2000 rows, each an existing ingredient once, minTons and maxTons >= 0 or null, not both null, min <= max." });

export const planRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/plans",
    summary: "List production plans (newest updatedAt first)",
    params: {},
    response: { status: 200, description: "The plans", schema: P.planList },
    errors: [400],
    handle: (ctx) =>
      ctx.cached(cacheKey("plans", ctx.key.workspaceId), async () => {
        const data = await ctx.read.listPlans(ctx.key.workspaceId);
        return openBody(data, { count: data.length });
      }),
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/plans/:id",
    summary: "One production plan: its lines and supply",
    params: PLAN_PARAM,
    response: { status: 200, description: "The plan", schema: P.planRead },
    errors: [400, 404],
    handle: (ctx, { params }) => ctx.cached(cacheKey("plan", ctx.key.workspaceId, params.id), async () => openBody(await ctx.read.requirePlan(ctx.key.workspaceId, params.id))),
  }),
  defineRoute({
    method: "PUT",
    path: "/v1/plans/:id",
    summary: "Create or replace a production plan (write permission)",
    description: "201 with Location when new, 200 when replaced (its createdAt kept). One problem per answer, naming the field (`lines[2].tons must be a number > 0`, `Unknown formula: broiler-x`, `Unknown ingredient: Maiz`, `Duplicate formula: <id>`, `supply[0] needs minTons or maxTons`). Fires the opt-in `plan.updated`.",
    params: PLAN_PARAM,
    body: planBodyDoc,
    response: {
      status: 200,
      description: "Replaced",
      schema: P.planRead,
      created: { description: "Created (the id was new)", headers: { Location: "URL of the plan" } },
    },
    errors: [400, 403, 413],
    async handle(ctx, { params, body }) {
      const ws = ctx.key.workspaceId;
      if (!P.PLAN_ID.test(params.id)) throw new ValidationError("id must be 1 to 64 of A-Z a-z 0-9 _ . -");
      const plan = parsePlanBody(body);
      const formulaExists = async (id: string) => {
        try {
          await ctx.read.requireFormulaId(ws, id);
          return true;
        } catch (error) {
          if (error instanceof NotFoundError) return false;
          throw error;
        }
      };
      await checkPlanReferences(plan, formulaExists, async (name) => (await ctx.read.findIngredient(ws, name)) !== null);
      const { plan: stored, created } = await ctx.write.putPlan({ workspaceId: ws, keyId: ctx.key.id, now: ctx.timestamp }, params.id, plan);
      return created ? jsonReply(201, okBody(stored, { timestamp: ctx.timestamp }), { Location: `/v1/plans/${encodeURIComponent(params.id)}` }) : jsonReply(200, okBody(stored, { timestamp: ctx.timestamp }));
    },
  }),
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/plans/:id/optimize",
    summary: "The plan optimized: every formula's mix under the shared supply, usage, supply shadow prices, the cost of sharing",
    description:
      "The multi-blend program over every line: each formula's own limits, and for each supply row minTons <= Σ tons × percent / 100 <= maxTons; minimising the plan's cost at today's prices (or the what-if `price`s; a price on a non-candidate makes it a candidate of every line). Each formula's mix is rounded as a saved optimum is. `shadowPrice`: the change of the plan's cost per one more ton of a binding supply bound. `candidates=all`: every ingredient of the workspace is a candidate of every line. `maxCo2e`: the plan's average footprint capped (kg CO2e per tonne of feed; unknown footprints held at 0), `co2e` its shadow price when it binds. Infeasible: single-limit repairs of formula limits, supply bounds and the cap.",
    params: PLAN_PARAM,
    query: z.object({
      price: z.array(z.string()).optional().meta({ description: "A what-if price, `NAME=VALUE` (repeatable; never stored)." }),
      includeOutOfStock: z.enum(["true", "false"], { error: "includeOutOfStock must be true or false" }).optional().transform((v) => v === "true"),
      candidates: candidatesParam,
      maxCo2e: maxCo2eParameter,
    }),
    lookup: (ctx, params) => ctx.read.requirePlan(ctx.key.workspaceId, params.id),
    response: { status: 200, description: "The optimized plan", schema: P.planOptimizeRead },
    errors: [400, 404, 422, 503],
    handle(ctx, { params, query }) {
      const ws = ctx.key.workspaceId;
      const prices = [...whatIfOf(ctx.rawQuery).prices].sort(byName);
      return ctx.cached(cacheKey("plan-optimize", ws, params.id, prices, query.includeOutOfStock, query.candidates, query.maxCo2e), async () => {
        const plan = await ctx.read.requirePlan(ws, params.id);
        const input = await planInput(plan, (id) => ctx.read.requireFormula(ws, id), await ctx.read.listIngredientDetails(ws), prices, { includeOutOfStock: query.includeOutOfStock, candidates: query.candidates, maxCo2e: query.maxCo2e });
        return openBodyJson(await ctx.solver.runJson("plan", input));
      });
    },
  }),
];
