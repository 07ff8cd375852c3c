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
const co2ePerTon = (what: string) => z.number().nullable().meta({ description: `${what}: kg CO2e per tonne of feed at today's co2e values, 1 decimal; null when an ingredient of it has no known co2e.` });

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
  validFrom: z.number().nullable().meta({ description: "Lowest value of the limit at which this shadow price still holds, rounded up at 2 decimals so it lies inside the true range (an inclusion limit's from 0; null = unbounded). A ratio's: the lowest ratio at which the same limits bind." }),
  validTo: z.number().nullable().meta({ description: "Highest value of the limit at which this shadow price still holds, rounded down at 2 decimals (an inclusion limit's up to 100; null = unbounded)." }),
};
const shadowPrice = z.number().meta({ description: "Change of the cost per ton for one unit more of the limit (1 % CP, 1 kcal/kg, 1 % inclusion, 1.0 of a ratio), signed, 4 decimals." });

/** What to relax when no mix meets the limits (the optimization's and the frontier's). */
export const conflict = z.strictObject({
  kind: z.enum(["nutrient", "ingredient", "ratio", "co2e"]),
  key: z.string().optional(),
  name: z.string().optional(),
  numerator: z.string().optional(),
  denominator: z.string().optional(),
  bound,
  limit: z.number(),
  bestAchievable: z.number().nullable().meta({ description: "alone: the value this limit must be moved to, every other limit kept, rounded toward feasibility at 4 decimals (down for a min, up for a max); not alone: the value the least-violating mix reaches (null: a ratio whose denominator is 0)." }),
  alone: z.boolean().meta({ description: "true: moving this limit alone to bestAchievable makes the formula feasible; false: no single limit suffices, and this is one of the limits an elastic re-solve moves." }),
}).meta({ id: "Conflict" });

/** The answer's object (a function: built once per schema that uses it, when first read). */
function plainResult() {
  return z
    .strictObject({
      id: z.string(),
      name: z.string(),
      batchSize: z.number().meta({ description: "kg" }),
      status: z.enum(["optimal", "infeasible"]),
      current: z.strictObject({
        cost: z.number().meta({ description: "The saved composition at these prices, per batch, 2 decimals." }),
        costPerTon: perTon("The saved composition at these prices: Σ percent / 100 × price"),
        co2ePerTon: co2ePerTon("The saved composition"),
        ingredients: z.array(z.strictObject({ name: z.string(), percent: z.number(), price: z.number(), cost: z.number() })),
      }),
      optimized: z
        .strictObject({
          cost: z.number().meta({ description: "Per batch, 2 decimals." }),
          costPerTon: perTon("Σ percent / 100 × price of the rounded mix"),
          co2ePerTon: co2ePerTon("The rounded mix"),
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
        ratios: z.array(z.strictObject({ numerator: z.string(), denominator: z.string(), bound, limit: z.number(), shadowPrice, ...validRange })),
        co2e: z
          .strictObject({
            limit: z.number().meta({ description: "maxCo2e, kg CO2e per tonne of feed." }),
            shadowPrice: z.number().meta({ description: "Change of the cost per tonne of feed for 1 kg CO2e per tonne more allowed (≤ 0), 6 decimals." }),
            perTonneCo2e: z.number().meta({ description: "−shadowPrice × 1000 from the unrounded shadow price: the marginal cost of abating one tonne of CO2e, 2 decimals." }),
          })
          .optional()
          .meta({ description: "Only with maxCo2e, when the cap binds." }),
      }),
      ranging: z.array(
        z.strictObject({
          name: z.string(),
          percent: z.number(),
          price: z.number(),
          priceLow: z.number().meta({ description: "Lowest price at which this composition stays optimal, per ton, rounded up at 2 decimals; 0 where the range reaches below 0 or has no lower end." }),
          priceHigh: nullablePrice("Highest price at which this composition stays optimal, rounded down at 2 decimals"),
        }),
      ),
      excluded: z.array(
        z.strictObject({
          name: z.string(),
          price: z.number(),
          entersBelow: z.number().nullable().meta({ description: "Price below which it would enter the mix, rounded down at 2 decimals; null: never (or held out of stock)." }),
          reason: z.literal("co2e unknown").optional().meta({ description: "Only with maxCo2e: held at 0 because its co2e is unknown." }),
        }),
      ),
      conflicts: z
        .array(conflict)
        .meta({ description: "Infeasible only: every single-limit repair, by relative move |bestAchievable − limit| / max(|limit|, 1), then kind (nutrient, ingredient, ratio) and key or name; only when no single limit suffices, the elastic set. [] when optimal." }),
    });
}

export const optimizeResult = z.lazy(() => plainResult().meta({ id: "OptimizeResult" }));

export type OptimizeResult = z.output<typeof optimizeResult>;

const probability = (side: string) => z.number().nullable().meta({ description: `P(achieved ${side}), 4 decimals; null when that side has no limit; with sd 0: 1 when met, else 0.` });
const nutrientOdds = z
  .strictObject({
    mean: z.number().meta({ description: "The achieved value on book values, 4 decimals." }),
    sd: z.number().meta({ description: "√(Σ (sd × percent)²) / 100, 4 decimals." }),
    margin: z.number().nullable().meta({ description: "mean − min or max − mean, whichever is smaller, 4 decimals." }),
    probabilityMin: probability("≥ min"),
    probabilityMax: probability("≤ max"),
  })
  .meta({ id: "NutrientOdds" });

/**
 * The answer at a confidence level (GET /v1/formulas/:id/optimize?confidence=P; docs/decisions.md#optimizing-to-a-confidence-level):
 * the least-cost answer's fields, the odds of each nutrient, the costs of assurance; above P = 0.5 the
 * shadow prices are local (no range), and price ranging and entering prices are absent.
 */
export const confidenceResult = z.lazy(() => {
  const plain = plainResult();
  const { shadowPrices, excluded, optimized } = plain.shape;
  return plain
    .extend({
      optimized: optimized.unwrap().extend({
        odds: z.record(z.string(), nutrientOdds).meta({ description: "For every nutrient with a limit: the achieved value as a normal variable (book values as means, the lab analyses' sds, ingredients independent) and the probability of meeting each limit." }),
      }).nullable().meta({ description: "The least-cost mix meeting every limit with the probability asked; null when infeasible." }),
      shadowPrices: shadowPrices.extend({ nutrients: z.array(shadowPrices.shape.nutrients.element.partial({ validFrom: true, validTo: true })), ingredients: z.array(shadowPrices.shape.ingredients.element.partial({ validFrom: true, validTo: true })), ratios: z.array(shadowPrices.shape.ratios.element.partial({ validFrom: true, validTo: true })) }).meta({ description: "From the final linear approximation; above confidence 0.5 local, without validFrom and validTo." }),
      ranging: plain.shape.ranging.optional().meta({ description: "Absent above confidence 0.5: the optimum sits on curved limits." }),
      excluded: z.array(excluded.element.extend({ entersBelow: excluded.element.shape.entersBelow.optional().meta({ description: "Absent above confidence 0.5." }) })),
      confidence: z.number().meta({ description: "The probability every nutrient limit is met with (0.5 to 0.999)." }),
      deterministicCost: z.number().nullable().meta({ description: "costPerTon of the least-cost answer on book values (confidence 0.5); null when that is infeasible." }),
      premium: z.number().nullable().meta({ description: "optimized.costPerTon − deterministicCost, per ton, 2 decimals; null when either is missing." }),
      blanketMarginCost: z.number().nullable().meta({ description: "costPerTon of the least-cost answer after every nutrient min is raised and every max lowered by z_P × the sd that nutrient has in the confidence-0.5 mix (a blanket safety margin for the same odds on that mix); null when that problem or the confidence-0.5 one is infeasible." }),
    })
    .meta({ id: "ConfidenceResult" });
});

export type ConfidenceResult = z.output<typeof confidenceResult>;

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
      status: z.enum(["optimal", "infeasible", "error"]).meta({ description: "`error`: the solver could not answer for this formula (`message` says why); the other rows are answered." }),
      message: z.string().optional().meta({ description: "With `error` only: why, e.g. `Solver time limit exceeded`." }),
      cost: z.number().meta({ description: "The saved composition at today's prices, per batch." }),
      optimizedCost: z.number().nullable().meta({ description: "Per batch; null when infeasible or error." }),
      saving: saving.nullable(),
      savedMeetsLimits: z.boolean().meta({ description: "Whether the saved composition meets the formula's own limits (with today's nutrient values). When false, the saving includes the cost of meeting them." }),
      violations: z.array(z.string()).meta({ description: "The saved composition's misses, as an import's warning names them: `CP 24.3 < min 45`. [] when it meets its limits." }),
    })
    .meta({ id: "SavingsItem" }),
);

export type SavingsItem = z.output<typeof savingsItem>;

export const savingsReport = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), data: z.array(savingsItem), count: z.int(), timestamp })
    .meta({ id: "SavingsReport", description: "Every formula optimized at today's prices and stock, by saving per ton descending, infeasible ones and those in error last." }),
);

/** The most a footprint can be: 1000 kg CO2e per kg (the co2e limit) is 10^6 kg per tonne. */
const MAX_CO2E_LIMIT = 1e6;
const MAX_CO2E_PROBLEM = `maxCo2e must be a number from -${MAX_CO2E_LIMIT} to ${MAX_CO2E_LIMIT} (kg CO2e per tonne of feed)`;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** `maxCo2e=V`: a cap on the mix's footprint in kg CO2e per tonne of feed (docs/decisions.md#carbon-footprint). */
export const maxCo2eParameter = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return null;
    const n = DECIMAL.test(v.trim()) ? Number(v) : NaN;
    if (!(Math.abs(n) <= MAX_CO2E_LIMIT)) {
      ctx.issues.push({ code: "custom", message: MAX_CO2E_PROBLEM, input: v });
      return z.NEVER;
    }
    return n;
  })
  .meta({ description: "A cap on the mix's footprint, kg CO2e per tonne of feed: Σ co2e × percent × 10 ≤ maxCo2e; candidates of unknown co2e are then held at 0." });

/**
 * The query of GET /v1/formulas/:id/optimize as documented and validated by the router. `include` and
 * `price` have their own splitting rules, applied to the raw query by src/optimize/what-if.ts; here
 * they only document.
 */
export const candidatesParam = z
  .enum(["formula", "all"], { error: "candidates must be formula or all" })
  .optional()
  .transform((v) => v ?? "formula")
  .meta({ description: "`formula` (default): the formula's composition, the ingredients its inclusion limits name, `include` and any ingredient given a what-if `price`. `all`: every ingredient of the workspace too (out-of-stock ones only with includeOutOfStock=true)." });

/** The optimization's candidates and what-ifs, as the routes that solve it many times (the frontier, the confidence curve) take them. */
export const solveSeriesParams = {
  candidates: candidatesParam,
  include: z.string().optional().meta({ description: "Extra candidates, comma-separated (a comma inside a name is sent as `%2C`), as for the optimization." }),
  price: z.array(z.string()).optional().meta({ description: "A what-if price, `NAME=VALUE` (repeatable; never stored), as for the optimization." }),
  includeOutOfStock: z
    .enum(["true", "false"], { error: "includeOutOfStock must be true or false" })
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "Let out-of-stock candidates into the mixes (default: they are held at 0)." }),
};

/** The query of GET /v1/reports/savings. */
export const savingsQuery = z.object({ candidates: candidatesParam });

export const optimizeQuery = z.object({
  candidates: candidatesParam,
  include: z.string().optional().meta({ description: "Extra candidates, comma-separated (a comma inside a name is sent as `%2C`)." }),
  price: z
    .array(z.string())
    .optional()
    .meta({ description: "A what-if price, `NAME=VALUE` (repeatable; never stored). The value is percent-decoded, then split at its last `=`. An ingredient outside the candidates becomes one." }),
  includeOutOfStock: z
    .enum(["true", "false"], { error: "includeOutOfStock must be true or false" })
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "Let out-of-stock candidates into the mix (default: they are held at 0)." }),
  maxCo2e: maxCo2eParameter,
});
