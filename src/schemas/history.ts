import { z } from "zod";
import { footprintFields } from "./footprint.ts";
import { ingredientQuery } from "./ingredients.ts";
import { instant } from "./time.ts";

/** GET /v1/prices/:name: `from` inclusive, `to` exclusive. */
export const historyQuery = z.object({ from: instant("from", "up").optional(), to: instant("to", "up").optional() });

/** GET /v1/prices: the list's filters, and `at` for the list as it stood then. */
export const pricesQuery = ingredientQuery.extend({ at: instant("at").optional() });

/** GET /v1/formulas/:id/cost: `at` absent means now. */
export const costQuery = z.object({ at: instant("at").optional() });

/** GET /v1/reports/cost-changes: `since` absent means since each formula was saved. */
export const costChangesQuery = z.object({ since: instant("since").optional() });

// Response shapes, for the OpenAPI document.
const time = (description: string) => z.string().meta({ description, example: "2026-10-05T08:00:00.000Z", format: "date-time" });
const money = (description: string) => z.number().meta({ description });
const timestamp = time("ISO 8601 UTC with milliseconds: the time of the request");

export const priceHistoryEntry = z.lazy(() =>
  z
    .object({
      price: z.number(),
      inStock: z.boolean(),
      at: time("When the price and stock took effect, UTC with milliseconds."),
      source: z.enum(["api", "import", "demo"]).meta({ description: "What made the change: the API (POST, PUT), an import (a new row, or --update), the demo." }),
    })
    .meta({ id: "PriceHistoryEntry" }),
);

export const priceHistoryResponse = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.object({ name: z.string(), category: z.string(), price: z.number(), inStock: z.boolean(), history: z.array(priceHistoryEntry).meta({ description: "Newest first; entries of the same instant newest recorded first." }) }),
    })
    .meta({ id: "PriceHistory", description: "No timestamp, like the price list." }),
);

export const formulaCostResponse = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.object({
        id: z.string(),
        name: z.string(),
        batchSize: z.number(),
        totalCost: money("The saved cost, frozen at import."),
        at: time("The instant whose prices were used (the request's time when `at` was not given)."),
        cost: money("The composition at the prices of `at`: unrounded row costs summed, 2 decimals."),
        change: money("cost − totalCost."),
        changePercent: z.number().nullable().meta({ description: "change / totalCost × 100, 2 decimals; null when totalCost is 0." }),
        costPerTon: money("The cost of one tonne at the prices of `at`: Σ percent/100 × price, 2 decimals (batches of any size compare)."),
        changePerTon: money("costPerTon − the cost of one tonne at the saved prices."),
        ingredients: z.array(
          z.object({
            name: z.string(),
            percent: z.number(),
            amount: money("kg in the batch."),
            savedPrice: money("The row's saved price per ton."),
            price: money("The price per ton in effect at `at` (an ingredient priced only later: its earliest price)."),
            cost: money("amount/1000 × price, 2 decimals."),
            change: money("cost − the row's saved cost."),
          }),
        ),
        ...footprintFields,
      }),
      timestamp,
    })
    .meta({ id: "FormulaCost" }),
);

export const costChangesResponse = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          species: z.string(),
          subcategory: z.string(),
          batchSize: z.number(),
          costThen: money("The cost at `since` (without `since`: the saved totalCost)."),
          costNow: money("The cost at current prices."),
          change: money("costNow − costThen."),
          changePercent: z.number().nullable().meta({ description: "change / costThen × 100, 2 decimals; null when costThen is 0." }),
          costPerTon: money("The cost of one tonne at current prices: Σ percent/100 × price, 2 decimals."),
          changePerTon: money("costPerTon − the cost of one tonne then."),
          drivers: z
            .array(z.object({ name: z.string(), priceThen: z.number(), priceNow: z.number(), change: money("amount/1000 × (priceNow − priceThen), 2 decimals.") }))
            .meta({ description: "The rows whose cost moved by a cent or more, by |change| descending, then name." }),
        }),
      ),
      count: z.int(),
      since: time("The `since` given, or null.").nullable(),
      timestamp,
    })
    .meta({ id: "CostChanges", description: "Formulas whose cost moved at 2 decimals, by |changePercent| descending (a null one first), then id." }),
);

export const formulaCostChangedPayload = z.lazy(() =>
  z
    .object({
      ingredient: z.string(),
      old_price: z.number(),
      new_price: z.number(),
      formulas: z
        .array(
          z.object({
            id: z.string(),
            name: z.string(),
            old_cost: z.number().meta({ description: "Per batch, at the old price." }),
            new_cost: z.number().meta({ description: "Per batch, at the new price." }),
            batch_size: z.number().meta({ description: "kg." }),
            old_cost_per_ton: z.number().meta({ description: "Per tonne at the old price: Σ percent/100 × price, 2 decimals." }),
            new_cost_per_ton: z.number().meta({ description: "Per tonne at the new price." }),
          }),
        )
        .meta({ description: "Saved formulas whose cost per batch at current prices moved at 2 decimals, by id." }),
      timestamp,
    })
    .meta({ id: "FormulaCostChangedEvent", description: "Opt-in: only for webhooks added with --events naming formula.cost_changed." }),
);
