/** What both backends' `import prices` share: options, result, refusals. */
import { ValidationError } from "../domain/errors.ts";
import type { PriceRow } from "../domain/price-file.ts";

export interface PriceImportOptions {
  now: string;
  /** Fire `price.updated` and `formula.cost_changed` as the API's PUT would; off with `--no-events`. */
  events: boolean;
}

export interface PriceImportResult {
  changed: number;
  unchanged: number;
}

/** @example priceImportResult(52, 12) // { changed: 12, unchanged: 40 } */
export const priceImportResult = (rows: number, changed: number): PriceImportResult => ({ changed, unchanged: rows - changed });

/** @example throw unknownIngredient(row) // "line 4: Ingredient not found: Barley" */
export const unknownIngredient = (row: PriceRow): ValidationError =>
  new ValidationError(`${row.where}: Ingredient not found: ${row.name} (a price file changes prices; add new ingredients with feedbase import ingredients)`);

/** @example throw entryBeforeLast(row, "2026-10-08T00:00:00.000Z") */
export const entryBeforeLast = (row: PriceRow, last: string): ValidationError =>
  new ValidationError(`${row.where}: at ${row.at} is before ${row.name}'s last price entry (${last})`);
