/** What both backends' nutrient definitions share. */
import { NotFoundError } from "../domain/errors.ts";
import type { NutrientDefinition } from "../domain/nutrients.ts";

export type NutrientInput = Omit<NutrientDefinition, "key">;

/** @example throw nutrientNotFound("Zn") // "Nutrient not found: Zn (neither defined nor used by an ingredient)" */
export const nutrientNotFound = (key: string): NotFoundError => new NotFoundError(`Nutrient not found: ${key} (neither defined nor used by an ingredient)`);

/** The statements of src/store/nutrients.ts, each dialect's in src/store/sqlite/nutrients.ts and src/store/pg/nutrients.ts. */
export interface NutrientStatements {
  definitions(workspaceId: number): NutrientDefinition[];
  /** The keys the workspace's ingredients use, each once. */
  usedKeys(workspaceId: number): string[];
  definition(workspaceId: number, key: string): NutrientDefinition | null;
  isUsed(workspaceId: number, key: string): boolean;
  /** Define or replace; true when the key was not defined before. */
  upsertDefinition(workspaceId: number, key: string, input: NutrientInput): boolean;
  /** Define a key unless it is defined. */
  insertDefault(workspaceId: number, definition: NutrientDefinition): void;
}
