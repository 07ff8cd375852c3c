/**
 * Lab analyses (docs/analyses.md): the body POST /v1/ingredients/:name/analyses validates, the query of
 * its GET, the answers and the opt-in `analysis.added` webhook, for the OpenAPI document.
 */
import { z } from "zod";
import { NUTRIENTS_MAX, nutrients, text } from "./ingredients.ts";
import { instant, isoDateTime } from "./time.ts";

export const ANALYSIS_TEXT_MAX = 100;

/** The nutrients of an analysis: as an ingredient's (section on values in docs/decisions.md#http), at least one. */
const analysisNutrients = nutrients.check((ctx) => {
  if (Object.keys(ctx.value).length === 0) ctx.issues.push({ code: "custom", message: `nutrients must have 1 to ${NUTRIENTS_MAX} keys`, input: ctx.value });
});

/** POST /v1/ingredients/:name/analyses. `sampledAt` absent means now; one in the future is refused by the handler (it knows the clock). */
export const analysisBody = z
  .strictObject({
    nutrients: analysisNutrients.meta({ description: `What the lab found: nutrient key to value (1 to ${NUTRIENTS_MAX} keys), as an ingredient's nutrients.`, example: { CP: 46.8, Lys: 2.87 } }),
    sampledAt: isoDateTime("sampledAt").optional().meta({ description: "When the sample was taken (not in the future); default now." }),
    lot: text("lot", ANALYSIS_TEXT_MAX).nullable().optional().meta({ description: `The delivery or lot sampled, up to ${ANALYSIS_TEXT_MAX} characters.`, example: "L-2611-07" }),
    lab: text("lab", ANALYSIS_TEXT_MAX).nullable().optional().meta({ description: `Who analysed it (a lab, the mill's NIR), up to ${ANALYSIS_TEXT_MAX} characters.`, example: "NIR intake" }),
  })
  .meta({ id: "AnalysisCreate" });

/** GET /v1/ingredients/:name/analyses: `from` inclusive, `to` exclusive, on `sampledAt` (as the price history's). */
export const analysesQuery = z.object({ from: instant("from", "up").optional(), to: instant("to", "up").optional() });

const time = (description: string) => z.string().meta({ description, example: "2026-11-20T08:00:00.000Z", format: "date-time" });
const timestamp = time("ISO 8601 UTC with milliseconds: the time of the request");

const analysis = z.lazy(() =>
  z
    .object({
      id: z.string().meta({ description: "`ana_` + 16 base62 characters.", example: "ana_4Kp0cX9qLm2ZsT7e" }),
      name: z.string().meta({ description: "The ingredient analysed." }),
      nutrients: z.record(z.string(), z.number()),
      sampledAt: time("When the sample was taken."),
      lot: z.string().nullable(),
      lab: z.string().nullable(),
      createdAt: time("When the analysis was recorded."),
    })
    .meta({ id: "Analysis" }),
);

const stats = z.lazy(() =>
  z
    .object({
      n: z.int().meta({ description: "Analyses carrying the key." }),
      mean: z.number(),
      sd: z.number().nullable().meta({ description: "Sample standard deviation (divisor n − 1); null below 2 analyses." }),
      min: z.number(),
      max: z.number(),
      book: z.number().nullable().meta({ description: "The ingredient's own value of the key (what formulas use); null when it has none." }),
    })
    .meta({ id: "AnalysisStats", description: "In the key's unit (GET /v1/nutrients), 4 decimals." }),
);

export const analysisWritten = z.lazy(() => z.object({ status: z.literal("ok"), data: analysis }).meta({ id: "AnalysisWriteResponse" }));

export const analysisList = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.object({
        name: z.string(),
        analyses: z.array(analysis).meta({ description: "Newest sampledAt first; equal sampledAt, newest recorded first." }),
        stats: z.record(z.string(), stats).meta({ description: "Per key the analyses of the window carry: the ingredient's own keys first, in its order." }),
      }),
      timestamp,
    })
    .meta({ id: "AnalysisList" }),
);

/** The opt-in `analysis.added` webhook: an analysis recorded over HTTP or by `import analyses`. */
export const analysisAddedPayload = z.lazy(() =>
  z
    .object({ id: z.string(), name: z.string(), nutrients: z.record(z.string(), z.number()), sampledAt: z.string(), timestamp })
    .meta({ id: "AnalysisAddedEvent", description: "Opt-in: only for webhooks added with --events naming analysis.added." }),
);

export type AnalysisBody = z.output<typeof analysisBody>;
