import { z } from "zod";
import { optimizeQuery } from "./optimize.ts";

/**
 * Shapes of price sweeps (docs/decisions.md#price-sweeps): the query of GET /v1/formulas/:id/sweep
 * (documented here; the range is checked by src/optimize/sweep-params.ts, whose messages name the
 * rules) and its answer.
 */
const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });

export const sweepQuery = optimizeQuery.extend({
  ingredient: z.string().optional().meta({ description: "The candidate whose price moves (required)." }),
  from: z.string().optional().meta({ description: "Lowest price per ton, >= 0 (required)." }),
  to: z.string().optional().meta({ description: "Highest price per ton, above `from`, <= 1e9 (required)." }),
  points: z.string().optional().meta({ description: "Evenly spaced prices from `from` to `to`, 2 to 201 (default 51)." }),
});

export const sweepResult = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      ingredient: z.string(),
      points: z.array(
        z.strictObject({
          price: z.number().meta({ description: "Per ton, 2 decimals." }),
          percent: z.number().nullable().meta({ description: "The optimum's percent of the ingredient at this price, 4 decimals; null when infeasible." }),
          costPerTon: z.number().nullable().meta({ description: "The optimum's cost per ton at this price, 2 decimals; null when infeasible." }),
        }),
      ),
      breakpoints: z
        .array(
          z.strictObject({
            price: z.number().meta({ description: "Where the optimal percent changes, per ton, 2 decimals." }),
            percentBelow: z.number().meta({ description: "The percent just below this price, 4 decimals." }),
            percentAbove: z.number().meta({ description: "The percent just above (and at) this price, 4 decimals." }),
          }),
        )
        .meta({ description: "Every price strictly between from and to at which the optimal percent changes, ascending, from the exact price ranges of the optima met." }),
      status: z.enum(["optimal", "infeasible"]),
    })
    .meta({ id: "SweepResult" }),
);

export type SweepResult = z.output<typeof sweepResult>;

export const sweepRead = z.lazy(() => z.object({ status: z.literal("ok"), data: sweepResult, timestamp }).meta({ id: "SweepResponse" }));
