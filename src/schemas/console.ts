/** The two reads the web console needs beside the rest of v1: the calling key, and every price history at once. */
import { z } from "zod";
import { priceHistoryEntry } from "./history.ts";
import { instant } from "./time.ts";

/** GET /v1/reports/price-history: `from` inclusive, `to` exclusive; `from` absent means 180 days back. */
export const priceHistoryReportQuery = z.object({ from: instant("from", "up").optional(), to: instant("to", "up").optional() });

export const keyResponse = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.object({
        id: z.string().meta({ description: "The calling key's id (as `feedbase key list` shows it); never the key itself." }),
        workspace: z.string().meta({ description: "The workspace the key reads and writes." }),
        write: z.boolean().meta({ description: "Whether the key may write (PUT, POST)." }),
        rateLimit: z.number().int().meta({ description: "Requests per hour the key may make." }),
        label: z.string().nullable().meta({ description: "The admin's note on the key, null when none." }),
      }),
      timestamp: z.string(),
    })
    .meta({ id: "KeyInfo", description: "What the calling key may do." }),
);

export const priceHistoryReportResponse = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.array(
        z.object({
          name: z.string(),
          history: z.array(priceHistoryEntry).meta({ description: "Oldest first: the last entry before `from` (when any), then every entry in the window." }),
        }),
      ).meta({ description: "Every ingredient of the workspace, in the price list's order." }),
      count: z.number().int(),
      from: z.string().meta({ description: "The window's start as used (inclusive).", format: "date-time" }),
      to: z.string().nullable().meta({ description: "The window's end as given (exclusive); null: open.", format: "date-time" }),
      timestamp: z.string(),
    })
    .meta({ id: "PriceHistoryReport" }),
);
