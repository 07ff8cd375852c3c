import { z } from "zod";
import { conflict, solveSeriesParams } from "./optimize.ts";

/**
 * Shapes of GET /v1/formulas/:id/frontier (docs/decisions.md#carbon-footprint): the cost–CO2e Pareto
 * frontier of a formula. They document; the numbers are built in src/optimize/frontier-task.ts.
 */

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });
const co2ePerTon = z.number().meta({ description: "kg CO2e per tonne of feed, 1 decimal." });

export const frontierResult = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      status: z.enum(["optimal", "infeasible"]).meta({ description: "infeasible: no mix of the candidates of known footprint meets the limits (points [], conflicts say what to relax)." }),
      points: z
        .array(
          z.strictObject({
            co2ePerTon,
            costPerTon: z.number().meta({ description: "Cost per tonne of the cheapest mix at this footprint, 2 decimals." }),
            ingredients: z.array(z.strictObject({ name: z.string(), percent: z.number().meta({ description: "4 decimals." }) })),
          }),
        )
        .meta({ description: "From the least-cost mix (the least CO2e among least-cost mixes) to the least-CO2e mix, evenly spaced in footprint; one point when those are the same mix." }),
      abatement: z
        .array(
          z.strictObject({
            from: co2ePerTon,
            to: co2ePerTon,
            costPerTonneCo2e: z
              .number()
              .nullable()
              .meta({ description: "Cost per tonne of CO2e avoided between two consecutive points, from the figures shown: (costPerTon after − before) ÷ (from − to) × 1000, 2 decimals; null if from equals to." }),
          }),
        )
        .meta({ description: "Between consecutive points; [] for a one-point frontier." }),
      heldOut: z.array(z.string()).meta({ description: "Candidates held at 0 because their co2e is unknown." }),
      conflicts: z
        .array(conflict)
        .meta({ description: "Infeasible only, as in the optimization: the limits to relax. [] otherwise." }),
    })
    .meta({ id: "Frontier" }),
);

export const frontierRead = z.lazy(() => z.object({ status: z.literal("ok"), data: frontierResult, timestamp }).meta({ id: "FrontierResponse" }));

export const FRONTIER_POINTS = { min: 2, max: 51, default: 11 } as const;
const POINTS_PROBLEM = `points must be an integer from ${FRONTIER_POINTS.min} to ${FRONTIER_POINTS.max}`;

/** `points`, beside the optimization's own parameters (`candidates`, `include`, `price`, `includeOutOfStock`, read as there). */
export const frontierQuery = z.object({
  points: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return FRONTIER_POINTS.default;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(n >= FRONTIER_POINTS.min && n <= FRONTIER_POINTS.max)) {
        ctx.issues.push({ code: "custom", message: POINTS_PROBLEM, input: v });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description: `How many points (${FRONTIER_POINTS.min}–${FRONTIER_POINTS.max}, default ${FRONTIER_POINTS.default}) when the ends differ.` }),
  ...solveSeriesParams,
});
