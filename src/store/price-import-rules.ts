/**
 * What both backends' `import prices` share: options, result, refusals, and the statements of
 * src/store/price-import.ts (each dialect's in src/store/sqlite/price-import.ts and src/store/pg/price-import.ts).
 */
import { ValidationError } from "../domain/errors.ts";
import type { PricePoint } from "../domain/ingredient-events.ts";
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

/** An ingredient's price and stock as a price row finds them; `last` is its history's last instant, when asked for. */
export interface PricedRow {
  id: number;
  price: number;
  inStock: number;
  last: string | null;
}

/** The statements of the price import (src/store/price-import.ts). */
export interface PriceImportStatements {
  /** PostgreSQL's outbox lock for the rest of the transaction (src/store/pg/events.ts); SQLite's one writer needs none. */
  holdOutbox(): void;
  /** A name's row, held to the transaction's end where a row can be (PostgreSQL's FOR UPDATE), with its indexed history's last instant when `withLast`; null for an unknown name. */
  lockedPrice(workspaceId: number, name: string, withLast: boolean): PricedRow | null;
  /**
   * The last instant of each ingredient in SQLite's unindexed price log, by ingredient id, read in one
   * pass (src/store/price-history.ts); PostgreSQL keeps no log, so none.
   */
  loggedLast(): Map<number, string>;
  setPrice(id: number, point: PricePoint, now: string): void;
}
