import { z } from "zod";
import { createIngredientBody } from "./ingredients.ts";
import { isoDateTime } from "./time.ts";

/**
 * One ingredient of a JSON import file: the API's creation body (same rules, same defaults) plus the
 * detail's timestamps, kept when given so an export imported elsewhere exports to the same bytes.
 */
export const ingredientFileItem = z.strictObject({
  ...createIngredientBody.shape,
  createdAt: isoDateTime("createdAt").optional(),
  updatedAt: isoDateTime("updatedAt").optional(),
});
