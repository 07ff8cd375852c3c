import { z } from "zod";
import { confidenceResult, optimizeRead, solveSeriesParams } from "./optimize.ts";
import { instant } from "./time.ts";

/**
 * Parameters and shapes of optimizing to a confidence level (docs/decisions.md#optimizing-to-a-confidence-level):
 * `confidence` and `analysesSince` on GET /v1/formulas/:id/optimize, and GET /v1/formulas/:id/confidence.
 */

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const CONFIDENCE = { min: 0.5, max: 0.999 } as const;
export const CURVE_POINTS = { min: 2, max: 50, default: 10 } as const;

/**
 * A probability from 0.5 to 0.999 read from a query value; `fallback` when absent.
 * @example probability("confidence", null).parse("0.95") // 0.95
 */
export function probability<T extends number | null>(field: string, fallback: T) {
  return z
    .string()
    .optional()
    .transform((v, ctx): number | T => {
      if (v === undefined) return fallback;
      const n = DECIMAL.test(v.trim()) ? Number(v) : NaN;
      if (!(n >= CONFIDENCE.min && n <= CONFIDENCE.max)) {
        ctx.issues.push({ code: "custom", message: `${field} must be between ${CONFIDENCE.min} and ${CONFIDENCE.max}`, input: v });
        return z.NEVER;
      }
      return n;
    });
}

/** `analysesSince`: the first instant whose analyses count (inclusive); absent: the last 365 days. */
export const analysesSince = instant("analysesSince", "up")
  .optional()
  .meta({ description: "Analyses sampled from this instant (inclusive) to now give each ingredient's sds (n ≥ 3 analyses of a key, else sd 0). Default: the last 365 days, from 00:00Z of the day 365 days before today. A date YYYY-MM-DD means its 00:00:00.000Z." });

/** The confidence parameters of GET /v1/formulas/:id/optimize. */
export const confidenceParams = {
  confidence: probability("confidence", null).meta({ description: "Meet every nutrient limit with at least this probability (0.5 to 0.999), each ingredient's values varying as its lab analyses do; 0.5 is the book-value answer with the odds added. The answer then carries the odds, deterministicCost, premium and blanketMarginCost." }),
  analysesSince,
};

/** GET /v1/formulas/:id/confidence's query, beside the optimization's candidates and what-ifs. */
export const curveQuery = z.object({
  from: probability("from", 0.5).meta({ description: "The lowest probability (0.5 to 0.999, default 0.5), solved at its exact value." }),
  to: probability("to", 0.99).meta({ description: "The highest probability (0.5 to 0.999, default 0.99), solved at its exact value." }),
  points: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return CURVE_POINTS.default;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!(n >= CURVE_POINTS.min && n <= CURVE_POINTS.max)) {
        ctx.issues.push({ code: "custom", message: `points must be an integer from ${CURVE_POINTS.min} to ${CURVE_POINTS.max}`, input: v });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description: `How many evenly spaced probabilities (${CURVE_POINTS.min}–${CURVE_POINTS.max}, default ${CURVE_POINTS.default}).` }),
  analysesSince,
  ...solveSeriesParams,
});

export const curveResult = z.lazy(() =>
  z
    .strictObject({
      id: z.string(),
      name: z.string(),
      points: z.array(
        z.strictObject({
          confidence: z.number().meta({ description: "The probability every nutrient limit is met with, 4 decimals." }),
          costPerTon: z.number().nullable().meta({ description: "Cost per tonne of the least-cost mix meeting every limit with that probability (Σ percent / 100 × price of the rounded mix, 2 decimals); null: no mix does." }),
          ingredients: z
            .array(z.strictObject({ name: z.string(), percent: z.number().meta({ description: "4 decimals, summing to exactly 100." }) }))
            .nullable()
            .meta({ description: "The rounded mix, largest first; null: no mix meets the limits with that probability." }),
        }),
      ),
    })
    .meta({ id: "ConfidenceCurve" }),
);

export const curveRead = z.lazy(() => z.object({ status: z.literal("ok"), data: curveResult, timestamp }).meta({ id: "ConfidenceCurveResponse" }));

export const confidenceRead = z.lazy(() => z.object({ status: z.literal("ok"), data: confidenceResult, timestamp }).meta({ id: "ConfidenceOptimizeResponse" }));

/** Days of analyses counted when `analysesSince` is absent. */
const WINDOW_DAYS = 365;

/**
 * The window's start: `analysesSince`, or 00:00Z of the day 365 days before `now` (a whole day, so a
 * cached answer holds all day).
 * @example sinceOrDefault(undefined, Date.parse("2026-11-26T19:00:00Z")) // "2025-11-26T00:00:00.000Z"
 */
export function sinceOrDefault(since: string | undefined, now: number): string {
  if (since !== undefined) return since;
  const today = new Date(now);
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - WINDOW_DAYS)).toISOString();
}

/** GET /v1/formulas/:id/optimize answers one or the other, as `confidence` is absent or given. */
export const optimizeOrConfidenceRead = z.lazy(() => z.union([optimizeRead, confidenceRead]));
