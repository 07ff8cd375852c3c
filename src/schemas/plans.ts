import { z } from "zod";
import { FORMULA_ID } from "./formulas.ts";

/**
 * Shapes of production plans (docs/decisions.md#production-plans): the body of PUT /v1/plans/:id (it
 * validates, with messages naming the field, `lines[2].tons must be a number > 0`), the stored plan,
 * the list, and the optimized plan.
 */
const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });
const instant = z.string().meta({ description: "ISO 8601 UTC with milliseconds", format: "date-time" });
export const PLAN_LINES_MAX = 500;
export const PLAN_SUPPLY_MAX = 2000;
const TONS_MAX = 1e7;

const tonsOrNull = (field: string) =>
  z
    .number({ error: `${field} must be a number >= 0 or null` })
    .refine((v) => Number.isFinite(v) && v >= 0 && v <= TONS_MAX, { error: `${field} must be a number >= 0 or null` })
    .nullable();

/** The plan without id and instants, as PUT takes it and `plan import` reads it (with `id`). */
export const planBody = z
  .strictObject({
    name: z.string({ error: "name is required" }).trim().min(1, { error: "name must not be empty" }).max(200, { error: "name must be at most 200 characters" }),
    lines: z
      .array(
        z.strictObject({
          formula: z.string({ error: "formula is required" }),
          tons: z.number({ error: "tons must be a number > 0" }).refine((v) => Number.isFinite(v) && v > 0 && v <= TONS_MAX, { error: "tons must be a number > 0 and <= 10000000" }),
        }),
        { error: "lines must have 1 to 500 entries" },
      )
      .min(1, { error: "lines must have 1 to 500 entries" })
      .max(PLAN_LINES_MAX, { error: "lines must have 1 to 500 entries" }),
    supply: z
      .array(z.strictObject({ name: z.string({ error: "name is required" }), minTons: tonsOrNull("minTons"), maxTons: tonsOrNull("maxTons") }), { error: "supply must be an array" })
      .max(PLAN_SUPPLY_MAX, { error: "supply must have at most 2000 entries" })
      .optional()
      .transform((v) => v ?? []),
  })
  .meta({ id: "PlanBody" });

export type PlanBody = z.output<typeof planBody>;

export const PLAN_ID = FORMULA_ID;

export const plan = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      lines: z.array(z.strictObject({ formula: z.string(), tons: z.number() })),
      supply: z.array(z.strictObject({ name: z.string(), minTons: z.number().nullable(), maxTons: z.number().nullable() })),
      createdAt: instant,
      updatedAt: instant,
    })
    .meta({ id: "Plan" }),
);
export type Plan = z.output<typeof plan>;

export const planSummary = z.lazy(() =>
  z
    .strictObject({ id: z.string(), name: z.string(), totalTons: z.number(), formulas: z.int().meta({ description: "The number of lines." }), createdAt: instant, updatedAt: instant })
    .meta({ id: "PlanSummary" }),
);
export type PlanSummary = z.output<typeof planSummary>;

export const planRead = z.lazy(() => z.object({ status: z.literal("ok"), data: plan, timestamp }).meta({ id: "PlanResponse" }));
export const planList = z.lazy(() => z.object({ status: z.literal("ok"), data: z.array(planSummary), count: z.int(), timestamp }).meta({ id: "PlanList" }));

const money = (what: string) => z.number().nullable().meta({ description: `${what}, 2 decimals; null when infeasible.` });

export const planResult = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      status: z.enum(["optimal", "infeasible"]),
      totalTons: z.number(),
      cost: money("The plan's cost at these prices: Σ tons × costPerTon of the mixes shown"),
      independentCost: money("Σ tons × costPerTon of each formula optimized alone, supply ignored"),
      sharingCost: money("cost − independentCost: what the shared supply (and a maxCo2e cap) costs"),
      co2ePerTon: z.number().nullable().meta({ description: "The plan's average footprint on the mixes shown, kg CO2e per tonne of feed (Σ tons × co2ePerTon / totalTons), 1 decimal; null when infeasible or a row shown has no known co2e." }),
      co2e: z
        .strictObject({
          limit: z.number().meta({ description: "maxCo2e, kg CO2e per tonne of feed on the plan's average." }),
          shadowPrice: z.number().meta({ description: "Change of the plan's cost per tonne of feed for 1 kg CO2e per tonne more allowed (≤ 0), 6 decimals." }),
          perTonneCo2e: z.number().meta({ description: "−shadowPrice × 1000: the marginal cost of abating one tonne of CO2e, 2 decimals." }),
        })
        .optional()
        .meta({ description: "Only with maxCo2e, when the cap binds." }),
      formulas: z.array(
        z.strictObject({
          id: z.string(),
          name: z.string(),
          tons: z.number(),
          costPerTon: money("Of the mix shown"),
          independentCostPerTon: money("Of the formula optimized alone"),
          ingredients: z.array(z.strictObject({ name: z.string(), percent: z.number().meta({ description: "4 decimals." }), tons: z.number().meta({ description: "3 decimals." }) })),
        }),
      ),
      usage: z.array(
        z.strictObject({
          name: z.string(),
          tons: z.number().meta({ description: "Used by the mixes shown, 3 decimals." }),
          minTons: z.number().nullable(),
          maxTons: z.number().nullable(),
          bound: z.enum(["min", "max"]).nullable().meta({ description: "The supply bound the usage meets when it binds." }),
          shadowPrice: z.number().nullable().meta({ description: "Change of the plan's cost per one more ton of the binding bound, 2 decimals (negative for a binding max: what one more ton is worth); null when none binds." }),
        }),
      ),
      conflicts: z.array(
        z.strictObject({
          kind: z.enum(["nutrient", "ingredient", "ratio", "co2e", "supply"]),
          formula: z.string().optional(),
          key: z.string().optional(),
          name: z.string().optional(),
          numerator: z.string().optional(),
          denominator: z.string().optional(),
          bound: z.enum(["min", "max"]),
          limit: z.number(),
          bestAchievable: z.number().nullable(),
          alone: z.boolean().optional(),
        }),
      ).meta({ description: "Infeasible only: single-limit repairs of formula limits (with `formula`), of supply bounds (`kind: supply`) and of a maxCo2e cap (`kind: co2e`, bestAchievable the least average footprint the plan reaches)." }),
    })
    .meta({ id: "PlanResult" }),
);
export type PlanResult = z.output<typeof planResult>;
export const planOptimizeRead = z.lazy(() => z.object({ status: z.literal("ok"), data: planResult, timestamp }).meta({ id: "PlanOptimizeResponse" }));

/** The opt-in `plan.updated` webhook: a plan written over HTTP or by `plan import`. */
export const planUpdatedPayload = z.lazy(() =>
  z
    .object({ id: z.string(), name: z.string(), timestamp })
    .meta({ id: "PlanUpdatedEvent", description: "Opt-in: only for webhooks added with --events naming plan.updated." }),
);
