import { z } from "zod";
import { BASES } from "../domain/nutrients.ts";
import { text } from "./ingredients.ts";

/** PUT /v1/nutrients/:key and each row of `feedbase import nutrients`: the whole definition. */
export const nutrientDefinitionBody = z
  .strictObject({
    name: text("name", 200).meta({ description: "What the key means.", example: "Crude protein" }),
    unit: text("unit", 32).meta({ description: "The unit of its values.", example: "%" }),
    basis: z.enum(BASES, { error: "basis must be as-fed or dry-matter" }).meta({ description: "Whether values are of the feed as fed or of its dry matter." }),
  })
  .meta({ id: "NutrientDefinitionInput" });

const listing = z.lazy(() =>
  z
    .object({
      key: z.string(),
      name: z.string().nullable().meta({ description: "Null for a key ingredients use without a definition." }),
      unit: z.string().nullable().meta({ example: "%" }),
      basis: z.enum(BASES).nullable(),
    })
    .meta({ id: "NutrientDefinition" }),
);

const timestamp = z.string().meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-11-21T14:03:07.123Z", format: "date-time" });

export const nutrientList = z.lazy(() =>
  z.object({ status: z.literal("ok"), data: z.array(listing).meta({ description: "By key (bytes)." }), timestamp }).meta({ id: "NutrientList" }),
);
export const nutrientRead = z.lazy(() => z.object({ status: z.literal("ok"), data: listing, timestamp }).meta({ id: "NutrientResponse" }));
export const nutrientWritten = z.lazy(() => z.object({ status: z.literal("ok"), data: listing }).meta({ id: "NutrientWriteResponse" }));
