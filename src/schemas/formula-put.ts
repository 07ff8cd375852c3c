import { z } from "zod";
import { footprintFields } from "./footprint.ts";
import { formulaDetail, formulaImport } from "./formulas.ts";

/**
 * PUT /v1/formulas/:id: one formula in the import shape, without `id` (the path names it; an `id`
 * in the body is `Unknown field: id`). Built on first use, like the import's schema.
 */
export const formulaPutBody = z.lazy(() => formulaImport.unwrap().omit({ id: true }).meta({ id: "FormulaPut" }));

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });

/** The answer of PUT /v1/formulas/:id: the detail as GET shows it, and the import's warnings. */
export const formulaWritten = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.object({
        ...formulaDetail.unwrap().shape,
        ...footprintFields,
        warnings: z.array(z.string()).meta({ description: "The import's warning lines: the limits the saved composition misses, e.g. `starter does not meet its constraints: CP 24.5 < min 30`." }),
      }),
    })
    .meta({ id: "FormulaWriteResponse" }),
);

/** The opt-in `formula.updated` webhook: a formula written over HTTP or by `import formulas`. */
export const formulaUpdatedPayload = z.lazy(() =>
  z
    .object({ id: z.string(), name: z.string(), timestamp })
    .meta({ id: "FormulaUpdatedEvent", description: "Opt-in: only for webhooks added with --events naming formula.updated." }),
);
