import { z } from "zod";

/**
 * Response shapes of the v1 API, for the OpenAPI document. Each carries an `id` so the document
 * names it once under components and refers to it everywhere else.
 */

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });

export const errorObject = z.lazy(() =>
  z
    .object({ status: z.literal("error"), message: z.string().meta({ example: "Ingredient not found: Maize" }) })
    .meta({ id: "Error", description: "Every error answer." }),
);

export const health = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), version: z.string().meta({ example: "1.0.0" }), timestamp })
    .meta({ id: "Health" }),
);

export const ingredientListItem = z.lazy(() =>
  z
    .object({
      name: z.string(),
      category: z.string(),
      price: z.number().meta({ description: "per ton" }),
      inStock: z.boolean(),
      nutrients: z.int().min(0).meta({ description: "In the list view: how many nutrients the ingredient has." }),
    })
    .meta({ id: "IngredientListItem", example: { name: "Maize", category: "Cereals", price: 215, inStock: true, nutrients: 15 } }),
);

export const ingredientDetail = z.lazy(() =>
  z
    .object({
      name: z.string(),
      category: z.string(),
      price: z.number(),
      inStock: z.boolean(),
      co2e: z.number().nullable().meta({ description: "kg CO2e per kg as fed, cradle to mill gate, land-use change included; null = unknown." }),
      nutrients: z.record(z.string(), z.number()).meta({ description: "Every nutrient, in the order it was given." }),
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .meta({ id: "Ingredient" }),
);

/** An ingredient as the API answers it; domain and store modules share this one type. */
export type IngredientDetail = z.output<typeof ingredientDetail>;
export const priceEntry = z.lazy(() =>
  z
    .object({ name: z.string(), price: z.number(), inStock: z.boolean(), category: z.string() })
    .meta({ id: "PriceEntry" }),
);

export const ingredientList = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), data: z.array(ingredientListItem), count: z.int(), pools: z.array(z.string()), timestamp })
    .meta({ id: "IngredientList" }),
);

export const ingredientRead = z.lazy(() =>
  z.object({ status: z.literal("ok"), data: ingredientDetail, timestamp }).meta({ id: "IngredientResponse" }),
);
export const ingredientWritten = z.lazy(() =>
  z.object({ status: z.literal("ok"), data: ingredientDetail }).meta({ id: "IngredientWriteResponse" }),
);
export const priceList = z.lazy(() =>
  z
    .object({ status: z.literal("ok"), data: z.array(priceEntry), count: z.int() })
    .meta({ id: "PriceList", description: "No timestamp on the price list: as the v1 spec has it." }),
);

export const priceUpdatedPayload = z.lazy(() =>
  z
    .object({ ingredient: z.string(), old_price: z.number(), new_price: z.number(), timestamp })
    .meta({ id: "PriceUpdatedEvent" }),
);
export const ingredientAddedPayload = z.lazy(() =>
  z
    .object({ ingredient: z.string(), category: z.string(), price: z.number(), timestamp })
    .meta({ id: "IngredientAddedEvent" }),
);

export const pingPayload = z.lazy(() =>
  z
    .object({ webhook: z.string().meta({ description: "The id of the webhook pinged (`wh_…`)." }), timestamp })
    .meta({ id: "PingEvent", description: "A test of the receiver, sent by `feedbase webhook ping`." }),
);

/** GET /healthz: plain text, for process supervisors. */
export const liveness = z.literal("ok");
/** `GET /readyz` when every check passes (src/http/readiness.ts). */
export const readiness = z.literal("ready");
/** `GET /metrics`: the Prometheus text format, which starts with a family's HELP line. */
export const metricsText = z.string().regex(/^# HELP feedbase_/);
