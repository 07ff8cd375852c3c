/** What both backends' nutrient definitions share. */
import { NotFoundError } from "../domain/errors.ts";
import type { NutrientDefinition } from "../domain/nutrients.ts";

export type NutrientInput = Omit<NutrientDefinition, "key">;

/** @example throw nutrientNotFound("Zn") // "Nutrient not found: Zn (neither defined nor used by an ingredient)" */
export const nutrientNotFound = (key: string): NotFoundError => new NotFoundError(`Nutrient not found: ${key} (neither defined nor used by an ingredient)`);
