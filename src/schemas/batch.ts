import { z } from "zod";

/**
 * Shapes of batch sheets (docs/decisions.md#batch-sheets): the query of GET /v1/formulas/:id/batch
 * (documented here, checked by src/optimize/batch-params.ts, whose messages name the rules) and its answer.
 */
const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });
const kg = (what: string) => z.string().optional().meta({ description: `${what}, kg (at most 3 decimals).` });

export const batchQuery = z.object({
  size: kg("The batch, from 1 to 100000, a whole multiple of `resolution`"),
  resolution: kg("Step of the macro scale, from 0.001 to size"),
  microResolution: kg("Step of the micro scale, from 0.001 to size; with `microBelow`"),
  microBelow: kg("A line whose exact amount is strictly below this is weighed on the micro scale; with `microResolution`"),
});

export const batchSheet = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      size: z.number().meta({ description: "kg" }),
      status: z.enum(["optimal", "infeasible"]).meta({ description: "infeasible: no whole steps meet every limit; the lines are then the nearest amounts." }),
      cost: z.number().meta({ description: "The amounts shown at today's prices, 2 decimals." }),
      exactCost: z.number().meta({ description: "The saved composition scaled to size at today's prices, 2 decimals." }),
      roundingCost: z.number().meta({ description: "cost − exactCost, 2 decimals." }),
      lines: z.array(
        z.strictObject({
          name: z.string(),
          scale: z.enum(["macro", "micro"]),
          step: z.number().meta({ description: "kg per step of its scale." }),
          kg: z.number().meta({ description: "A whole number of steps, 3 decimals." }),
          percent: z.number().meta({ description: "kg / size × 100, 4 decimals." }),
          exactKg: z.number().meta({ description: "percent of the saved composition × size / 100, 3 decimals." }),
          deviationKg: z.number().meta({ description: "kg − exactKg, 3 decimals." }),
        }),
      ).meta({ description: "In order of addition: macro by kg descending, then micro by kg descending; equal kg by name." }),
      nutrients: z.record(z.string(), z.number()).meta({ description: "Achieved by the amounts shown, 4 decimals." }),
      conflicts: z
        .array(
          z.strictObject({
            kind: z.enum(["nutrient", "ingredient", "ratio"]),
            key: z.string().optional(),
            name: z.string().optional(),
            numerator: z.string().optional(),
            denominator: z.string().optional(),
            bound: z.enum(["min", "max"]),
            limit: z.number(),
            bestAchievable: z.number().nullable().meta({ description: "The value on the amounts shown, 4 decimals (null: a ratio whose denominator is 0)." }),
          }),
        )
        .meta({ description: "Infeasible only: every limit the amounts shown miss. [] when optimal." }),
    })
    .meta({ id: "BatchSheet" }),
);

export const batchRead = z.lazy(() => z.object({ status: z.literal("ok"), data: batchSheet, timestamp }).meta({ id: "BatchSheetResponse" }));
