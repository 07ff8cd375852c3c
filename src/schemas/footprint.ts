import { z } from "zod";

/** A formula's footprint at today's `co2e` values: in the detail and the cost only (docs/decisions.md#carbon-footprint). */
export const footprintFields = {
  co2ePerTon: z.number().nullable().meta({ description: "kg CO2e per tonne of feed at today's co2e values: Σ percent/100 × co2e × 1000, 1 decimal; null when co2eUnknown is not empty." }),
  co2eUnknown: z.array(z.string()).meta({ description: "Names of the composition rows whose co2e is unknown (null)." }),
};
