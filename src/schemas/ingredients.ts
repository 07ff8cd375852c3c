import { z } from "zod";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Characters that change how a text is shown, or show as nothing, so two different names look alike
 * (`Maize` and `Mai\u200Bze`, or a name reversed on screen by U+202E): zero-width spaces and joiners,
 * directional marks, embeddings, overrides and isolates, invisible operators, and the byte-order mark.
 */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The problem with an invisible character in `s`, if it holds one; the message names it.
 * @example invisibleProblem("name", "Mai\u200Bze") // "name must not contain U+200B: …"
 */
export function invisibleProblem(field: string, s: string): string | null {
  const found = INVISIBLE.exec(s);
  return found === null ? null : `${field} must not contain ${codePoint(found[0])}: zero-width and bidirectional formatting characters make different names look alike`;
}
const chars = (s: string) => [...s].length;

export const PRICE_MAX = 1e9;
export const NUTRIENT_VALUE_LIMIT = 1e9;
export const NUTRIENTS_MAX = 500;

/** Text with an unpaired UTF-16 surrogate cannot be stored as UTF-8 without becoming another text. */
const WELL_FORMED = (s: string) => s.isWellFormed();

/**
 * A text field: refused with a lone surrogate, trimmed, Unicode-normalized to NFC (so `Café` typed
 * either way is one name), within a length in characters, no control characters.
 * @example text("species", 100).parse("  Poultry ") // "Poultry"
 */
export function text(field: string, max: number) {
  return z
    .string()
    .refine(WELL_FORMED, { message: `${field} must not contain a lone surrogate (invalid Unicode)`, abort: true })
    .transform((s) => s.trim().normalize("NFC"))
    .refine((s) => chars(s) >= 1 && chars(s) <= max, `${field} must be 1 to ${max} characters`)
    .refine((s) => !CONTROL.test(s), `${field} must not contain control characters`)
    .check((ctx) => {
      const problem = invisibleProblem(field, ctx.value);
      if (problem !== null) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
    });
}

export const ingredientName = text("name", 200)
  // No URL reaches an ingredient called . or .. (clients and proxies resolve them as path steps).
  .refine((s) => s !== "." && s !== "..", "name must not be . or ..")
  .meta({ description: "Unique within the workspace (exact match); trimmed.", example: "Soybean meal 48%" });
export const categoryName = text("category", 100).meta({ description: "Category (pool) name.", example: "Protein meals" });
export const price = z.number().min(0).max(PRICE_MAX).meta({ description: "Price per ton.", example: 462.5 });
export const CO2E_LIMIT = 1e3;
/** The footprint (docs/decisions.md#carbon-footprint); null = unknown. */
export const co2e = z
  .number()
  .min(-CO2E_LIMIT)
  .max(CO2E_LIMIT)
  .nullable()
  .meta({ description: "kg CO2e per kg as fed, cradle to mill gate, land-use change included; null = unknown.", example: 0.55 });

/**
 * zod drops a `__proto__` key without a word (it guards against prototype pollution), so input that
 * names one is refused rather than stored with a nutrient missing.
 * @example hasProtoKey(JSON.parse('{"__proto__": 1}')) // true
 */
export const hasProtoKey = (value: unknown): boolean => value !== null && typeof value === "object" && Object.hasOwn(value, "__proto__");
export const PROTO_KEY_PROBLEM = "__proto__ cannot be a nutrient key";

const nutrientRecord = z
  .record(z.string(), z.number().min(-NUTRIENT_VALUE_LIMIT).max(NUTRIENT_VALUE_LIMIT))
  .check((ctx) => {
    const keys = Object.keys(ctx.value);
    if (keys.length > NUTRIENTS_MAX) ctx.issues.push({ code: "custom", message: `nutrients must have at most ${NUTRIENTS_MAX} keys`, input: ctx.value });
    const bad = keys.find((k) => k.length < 1 || k.length > 64 || CONTROL.test(k));
    if (bad !== undefined) ctx.issues.push({ code: "custom", message: "nutrient keys must be 1 to 64 characters without control characters", input: ctx.value });
    const invisible = keys.map((k) => invisibleProblem("nutrient keys", k)).find((problem) => problem !== null);
    if (invisible) ctx.issues.push({ code: "custom", message: invisible, input: ctx.value });
    if (!keys.every(WELL_FORMED)) ctx.issues.push({ code: "custom", message: "nutrient keys must not contain a lone surrogate (invalid Unicode)", input: ctx.value });
    else if (new Set(keys.map((k) => k.normalize("NFC"))).size !== keys.length) {
      ctx.issues.push({ code: "custom", message: "nutrient keys must differ after Unicode normalization (NFC)", input: ctx.value });
    }
  })
  // One spelling per key: the NFC form, in the order given.
  .transform((record) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key.normalize("NFC"), value])))
  .meta({ description: "Nutrient key to value, in the order given.", example: { ME_poultry: 2440, CP: 48.5, Lys: 2.96 } });

export const nutrients = z.preprocess((value, ctx) => {
  if (hasProtoKey(value)) ctx.issues.push({ code: "custom", message: PROTO_KEY_PROBLEM, input: value });
  return value;
}, nutrientRecord);

/** POST /v1/ingredients. */
export const createIngredientBody = z
  .strictObject({
    name: ingredientName,
    category: categoryName.default("General"),
    price: price.default(0),
    inStock: z.boolean().default(true),
    co2e: co2e.default(null),
    nutrients: nutrients.default({}),
  })
  .meta({ id: "IngredientCreate" });

/** PUT /v1/ingredients/:name and PUT /v1/prices/:name: the price is required. */
export const updatePriceBody = z.strictObject({ price, inStock: z.boolean().optional() }).meta({ id: "PriceUpdate" });

/** PUT /v1/ingredients/:name: the price update plus `co2e` (absent keeps the stored value, null clears it). */
export const updateIngredientBody = z.strictObject({ price, inStock: z.boolean().optional(), co2e: co2e.optional() }).meta({ id: "IngredientUpdate" });

/** Filters of GET /v1/ingredients and GET /v1/prices; unknown parameters are ignored. */
export const ingredientQuery = z.object({
  category: z
    .string()
    .optional()
    .transform((s) => s?.normalize("NFC"))
    .meta({ description: "Only this category (exact, case-sensitive)." }),
  inStock: z
    .enum(["true", "false"], { error: "inStock must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .meta({ description: "Only in-stock (`true`) or out-of-stock (`false`) ingredients." }),
});

/** A new ingredient as the stores take it: the body as validated, the footprint optional (unknown when absent). */
export type CreateIngredient = Omit<z.output<typeof createIngredientBody>, "co2e"> & { co2e?: number | null };
export type UpdatePrice = z.output<typeof updatePriceBody>;
export type UpdateIngredient = z.output<typeof updateIngredientBody>;
