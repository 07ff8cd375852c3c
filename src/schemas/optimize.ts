import { z } from "zod";

/**
 * Shapes of least-cost formulation (docs/decisions.md#least-cost-formulation): the result of
 * GET /v1/formulas/:id/optimize and the items of GET /v1/reports/savings. They document; the numbers
 * are built in src/optimize/result.ts.
 */

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });
const perTon = (what: string) => z.number().meta({ description: `${what}, per ton, 2 decimals.` });
const nullablePrice = (what: string) => z.number().nullable().meta({ description: `${what}, per ton, 2 decimals; null = unbounded.` });
const bound = z.enum(["min", "max"]);

const saving = z.lazy(() =>
  z
    .strictObject({
      perBatch: z.number().meta({ description: "current.cost − optimized.cost, of the figures shown (2 decimals)." }),
      perTon: z.number().meta({ description: "current.costPerTon − optimized.costPerTon, of the figures shown (2 decimals)." }),
      percent: z.number().nullable().meta({ description: "perTon / current.costPerTon × 100, 2 decimals; null when the current cost is 0." }),
    })
    .meta({ id: "Saving" }),
);

const validRange = {
  validFrom: z.number().nullable().meta({ description: "Lowest value of the limit at which this shadow price still holds (2 decimals; null = unbounded)." }),
  validTo: z.number().nullable().meta({ description: "Highest value of the limit at which this shadow price still holds (2 decimals; null = unbounded)." }),
};
const shadowPrice = z.number().meta({ description: "Change of the cost per ton for one unit more of the limit (1 % CP, 1 kcal/kg, 1 % inclusion, 1.0 of a ratio), signed, 4 decimals." });

export const optimizeResult = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      batchSize: z.number().meta({ description: "kg" }),
      status: z.enum(["optimal", "infeasible"]),
      current: z.strictObject({
        cost: z.number().meta({ description: "The saved composition at these prices, per batch, 2 decimals." }),
        costPerTon: perTon("The saved composition at these prices: Σ percent / 100 × price"),
        ingredients: z.array(z.strictObject({ name: z.string(), percent: z.number(), price: z.number(), cost: z.number() })),
      }),
      optimized: z
        .strictObject({
          cost: z.number().meta({ description: "Per batch, 2 decimals." }),
          costPerTon: perTon("Σ percent / 100 × price of the rounded mix"),
          ingredients: z.array(
            z.strictObject({
              name: z.string(),
              percent: z.number().meta({ description: "4 decimals, summing to exactly 100; the rounded mix keeps every limit (exactly, in decimal) that the unrounded optimum meets." }),
              amount: z.number().meta({ description: "kg in the batch, 3 decimals." }),
              price: z.number(),
              cost: z.number(),
            }),
          ),
          nutrients: z.record(z.string(), z.number()).meta({ description: "Achieved values, 4 decimals." }),
        })
        .nullable()
        .meta({ description: "The least-cost mix; null when infeasible." }),
      saving: saving.nullable(),
      shadowPrices: z.strictObject({
        nutrients: z.array(z.strictObject({ key: z.string(), bound, limit: z.number(), shadowPrice, ...validRange })),
        ingredients: z.array(z.strictObject({ name: z.string(), bound, limit: z.number(), shadowPrice, ...validRange })),
        ratios: z.array(z.strictObject({ numerator: z.string(), denominator: z.string(), bound, limit: z.number(), shadowPrice })),
      }),
      ranging: z.array(
        z.strictObject({
          name: z.string(),
          percent: z.number(),
          price: z.number(),
          priceLow: nullablePrice("Lowest price at which this composition stays optimal"),
          priceHigh: nullablePrice("Highest price at which this composition stays optimal"),
        }),
      ),
      excluded: z.array(
        z.strictObject({
          name: z.string(),
          price: z.number(),
          entersBelow: z.number().nullable().meta({ description: "Price below which it would enter the mix, 2 decimals; null: never (or held out of stock)." }),
        }),
      ),
      conflicts: z
        .array(
          z.strictObject({
            kind: z.enum(["nutrient", "ingredient", "ratio", "co2e"]),
            key: z.string().optional(),
            name: z.string().optional(),
            numerator: z.string().optional(),
            denominator: z.string().optional(),
            bound,
            limit: z.number(),
            bestAchievable: z.number().nullable().meta({ description: "alone: the value this limit must be moved to, every other limit kept, rounded toward feasibility at 4 decimals (down for a min, up for a max); not alone: the value the least-violating mix reaches (null: a ratio whose denominator is 0)." }),
            alone: z.boolean().meta({ description: "true: moving this limit alone to bestAchievable makes the formula feasible; false: no single limit suffices, and this is one of the limits an elastic re-solve moves." }),
          }),
        )
        .meta({ description: "Infeasible only: every single-limit repair, by relative move |bestAchievable − limit| / max(|limit|, 1), then kind (nutrient, ingredient, ratio) and key or name; only when no single limit suffices, the elastic set. [] when optimal." }),
    })
    .meta({ id: "OptimizeResult" }),
);

export type OptimizeResult = z.output<typeof optimizeResult>;

export const optimizeRead = z.lazy(() =>
  z.object({ status: z.literal("ok"), data: optimizeResult, timestamp }).meta({ id: "OptimizeResponse" }),
);

export const savingsItem = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      species: z.string(),
      subcategory: z.string(),
      status: z.enum(["optimal", "infeasible"]),
      cost: z.number().meta({ description: "The saved composition at today's prices, per batch." }),
      optimizedCost: z.number().nullable().meta({ description: "Per batch; null when infeasible." }),
      saving: saving.nullable(),
    })
    .meta({ id: "SavingsItem" }),
);

export type SavingsItem = z.output<typeof savingsItem>;

export const savingsReport = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), data: z.array(savingsItem), count: z.int(), timestamp })
    .meta({ id: "SavingsReport", description: "Every formula optimized at today's prices and stock, by saving per ton descending, infeasible ones last." }),
);

/**
 * The query of GET /v1/formulas/:id/optimize as documented and validated by the router. `include` and
 * `price` have their own splitting rules, applied to the raw query by src/optimize/what-if.ts; here
 * they only document.
 */
export const optimizeQuery = z.object({
  include: z.string().optional().meta({ description: "Extra candidates, comma-separated (a comma inside a name is sent as `%2C`)." }),
  price: z
    .array(z.string())
    .optional()
    .meta({ description: "A what-if price, `NAME=VALUE` (repeatable; never stored). The value is percent-decoded, then split at its last `=`." }),
  includeOutOfStock: z
    .enum(["true", "false"], { error: "includeOutOfStock must be true or false" })
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "Let out-of-stock candidates into the mix (default: they are held at 0)." }),
});
