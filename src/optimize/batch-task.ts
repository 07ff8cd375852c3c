/**
 * A batch sheet as a pool task (./tasks.ts): its input is already plain data (batch-sheet.ts); the
 * solver's size limits are checked before the integer program is built.
 */
import type { Highs } from "highs";
import { batchSheet, type BatchSheet, type BatchSheetInput } from "./batch-sheet.ts";
import { checkSolveSize } from "./limits.ts";

/** @example batchSheetTask(highs, await batchInput(formula, scales, find)).status // "optimal" */
export function batchSheetTask(highs: Highs, input: BatchSheetInput): BatchSheet {
  const { nutrients, ingredients, ratios } = input.constraints;
  const bounded = (b: { min: number | null; max: number | null }) => b.min !== null || b.max !== null;
  checkSolveSize({ candidates: input.rows.length, limits: nutrients.filter(bounded).length + ingredients.filter(bounded).length, ratios: (ratios ?? []).length });
  return batchSheet(highs, input);
}
