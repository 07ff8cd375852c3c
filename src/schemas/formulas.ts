import { z } from "zod";
import { footprintFields } from "./footprint.ts";
import { ingredientName, NUTRIENT_VALUE_LIMIT as NUMBER_LIMIT, nutrients, price, text } from "./ingredients.ts";
import { isoDateTime } from "./time.ts";

export const FORMULA_ID = /^[A-Za-z0-9_.-]{1,64}$/;
export const BATCH_SIZE_MAX = 1e7;
/** Upper bounds that keep one formula a sane size; a real premix-to-concentrate formula has tens of rows. */
const ROWS_MAX = 500;
const CONSTRAINTS_MAX = 1000;

/** Like every other number of the service, |value| <= 1e9: the solver takes nothing larger (docs/decisions.md#solver-pool). */
const bound = (description: string) =>
  z.number().min(-NUMBER_LIMIT).max(NUMBER_LIMIT).nullable().default(null).meta({ description: `${description}, from -1e9 to 1e9; null for none.` });
const percentBound = (description: string) => z.number().min(0).max(100).nullable().default(null).meta({ description: `${description}; null for none.` });

/** `min <= max` when both are given: the one cross-field rule of a bound. */
const ordered = (b: { min: number | null; max: number | null }) => b.min === null || b.max === null || b.min <= b.max;
const ORDER_PROBLEM = "max must be >= min";

/**
 * One formula of `feedbase import formulas` (docs/decisions.md#formulas-and-files). Row `price` and the formula's `nutrients`
 * are a formulator's own figures: kept when given, taken from the ingredient database when absent.
 * Built on first use: `serve` never reads a formula file, and building it is a share of the start.
 */
export const formulaImport = z.lazy(() => {
  const formulaId = z
    .string()
    .regex(FORMULA_ID, "id must be 1 to 64 of A-Z a-z 0-9 _ . -")
    .meta({ description: "Formula identifier (generated ids are frm_ + 16 base62 characters).", example: "broiler-starter" });
  const nutrientBound = z
    .strictObject({ key: text("key", 64).meta({ example: "CP" }), min: bound("Lower bound"), max: bound("Upper bound") })
    .refine(ordered, ORDER_PROBLEM);
  const ingredientBound = z
    .strictObject({ name: ingredientName, min: percentBound("Lower inclusion limit, percent"), max: percentBound("Upper inclusion limit, percent") })
    .refine(ordered, ORDER_PROBLEM);

  /** A ratio of two achieved nutrients (Ca : avP, Thr : Lys), bounded like a nutrient, at least on one side. */
  const ratioBound = z
    .strictObject({
      numerator: text("numerator", 64).meta({ example: "Ca" }),
      denominator: text("denominator", 64).meta({ example: "avP" }),
      min: bound("Lower bound of numerator / denominator"),
      max: bound("Upper bound of numerator / denominator"),
    })
    .refine((b) => b.min !== null || b.max !== null, "min and max must not both be null")
    .refine(ordered, ORDER_PROBLEM);

  const formulaConstraints = z
    .strictObject({
      nutrients: z.array(nutrientBound).max(CONSTRAINTS_MAX).default([]),
      ingredients: z.array(ingredientBound).max(CONSTRAINTS_MAX).default([]),
      ratios: z.array(ratioBound).max(CONSTRAINTS_MAX).default([]),
    })
    .meta({
      id: "FormulaConstraints",
      description: "Nutrient bounds, ingredient inclusion limits (percent) and nutrient ratio bounds; a null bound is no bound.",
    });

  return z
    .strictObject({
      id: formulaId.optional(),
      name: text("name", 200),
      species: text("species", 100),
      subcategory: text("subcategory", 100),
      batchSize: z.number().min(1).max(BATCH_SIZE_MAX).meta({ description: "Batch size in kg." }),
      createdAt: isoDateTime("createdAt").optional(),
      ingredients: z
        .array(
          z.strictObject({
            name: ingredientName,
            percent: z.number().gt(0, "percent must be a number > 0").max(100),
            price: price.optional(),
          }),
        )
        .min(1, "ingredients must list at least one ingredient")
        .max(ROWS_MAX, `ingredients must list at most ${ROWS_MAX} rows`),
      nutrients: nutrients.optional(),
      constraints: formulaConstraints.default({ nutrients: [], ingredients: [], ratios: [] }),
    })
    .meta({ id: "FormulaImport" });
});

export type FormulaImport = z.output<typeof formulaImport>;

/** Filters of GET /v1/formulas (exact, case-sensitive); unknown parameters are ignored. */
export const formulaQuery = z.object({
  species: z.string().optional().meta({ description: "Only this species (exact, case-sensitive)." }),
  subcategory: z.string().optional().meta({ description: "Only this subcategory (exact, case-sensitive)." }),
});

/** The list item of GET /v1/formulas: exactly the spec's summary fields. */
const summaryFields = () => ({
  id: z.string(),
  name: z.string(),
  species: z.string(),
  subcategory: z.string(),
  batchSize: z.number().meta({ description: "Batch size in kg." }),
  totalCost: z.number().meta({ description: "Σ amount/1000 × price of the unrounded row costs, rounded to 2 decimals; frozen at import." }),
  createdAt: z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-01-08T07:45:00.000Z", format: "date-time" }),
});
export const formulaSummary = z.lazy(() => z.strictObject(summaryFields()).meta({ id: "FormulaSummary" }));

/** `data` of GET /v1/formulas/:id (docs/decisions.md#formulas-and-files): the summary fields first, then composition, nutrients, constraints. */
export const formulaDetail = z.lazy(() =>
  z.strictObject({
    ...summaryFields(),
    ingredients: z.array(
      z.strictObject({
        name: z.string(),
        percent: z.number(),
        amount: z.number().meta({ description: "kg in the batch, 3 decimals." }),
        price: z.number().meta({ description: "Price per ton used for the formula." }),
        cost: z.number().meta({ description: "Cost of the amount, 2 decimals." }),
      }),
    ),
    nutrients: z.record(z.string(), z.number()).meta({ description: "Achieved nutrient values, 4 decimals." }),
    constraints: z.strictObject({
      nutrients: z.array(z.strictObject({ key: z.string(), min: z.number().nullable(), max: z.number().nullable() })),
      ingredients: z.array(z.strictObject({ name: z.string(), min: z.number().nullable(), max: z.number().nullable() })),
      ratios: z.array(z.strictObject({ numerator: z.string(), denominator: z.string(), min: z.number().nullable(), max: z.number().nullable() })),
    }),
  }).meta({ id: "FormulaDetail" }),
);

export type FormulaSummary = z.output<typeof formulaSummary>;
export type FormulaDetail = z.output<typeof formulaDetail>;

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });

/** GET /v1/formulas. */
export const formulaList = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), data: z.array(formulaSummary), count: z.int(), timestamp })
    .meta({ id: "FormulaList" }),
);

/** GET /v1/formulas/:id: the detail and its footprint. */
export const formulaRead = z.lazy(() =>
  z.object({ status: z.literal("ok"), data: formulaDetail.unwrap().extend(footprintFields).meta({ id: "FormulaDetailRead" }), timestamp }).meta({ id: "FormulaResponse" }),
);
