/**
 * The non-SQL half of the ingredient reads, shared by both backends: flags are stored 0/1 and
 * nutrients as JSON text, so every row is mapped the same way whichever database read it.
 */
import type { z } from "zod";
import { NotFoundError } from "../domain/errors.ts";
import type { PricePoint } from "../domain/ingredient-events.ts";
import type { CreateIngredient, ingredientQuery } from "../schemas/ingredients.ts";
import type * as R from "../schemas/responses.ts";
import type { IngredientDetail } from "../schemas/responses.ts";

/** The list view: nutrients is the number of nutrients (the spec's list item). */
export type IngredientListItem = z.output<typeof R.ingredientListItem>;
export type PriceEntry = z.output<typeof R.priceEntry>;
export type { IngredientDetail };

/** Optional, additive list filters (exact, case-sensitive matches): the list's query, as validated. */
export type IngredientFilters = Partial<z.output<typeof ingredientQuery>>;

/** An ingredient row as selected for the detail view (same aliases on both backends). */
export interface DetailRow {
  name: string;
  category: string;
  price: number;
  inStock: number;
  co2e: number | null;
  nutrients: string;
  createdAt: string;
  updatedAt: string;
}

/** @example toDetail(row).nutrients // { protein: 8.5 } */
export const toDetail = (r: DetailRow): IngredientDetail => ({ ...r, inStock: r.inStock === 1, nutrients: JSON.parse(r.nutrients) });

/**
 * Rows whose `inStock` was read as 0/1, made booleans in place (a list can be long; no copy).
 * @example stockFlags<PriceEntry>(rows)[0].inStock // true
 */
export function stockFlags<T extends { inStock: boolean }>(rows: (Omit<T, "inStock"> & { inStock: number })[]): T[] {
  for (const r of rows) (r as unknown as T).inStock = r.inStock === 1;
  return rows as unknown as T[];
}

/**
 * The list filters as query parameters: the category or null, the stock flag as 0/1 or null.
 * @example filterValues({ inStock: true }) // [null, 1]
 */
export const filterValues = (f: IngredientFilters): [string | null, number | null] => [f.category ?? null, f.inStock === undefined ? null : f.inStock ? 1 : 0];

/** The ingredient looked up, or the 404 both backends answer for a name the workspace lacks. @example orNotFound(row, "Maize") */
export function orNotFound(ingredient: IngredientDetail | null, name: string): IngredientDetail {
  if (!ingredient) throw new NotFoundError(`Ingredient not found: ${name}`);
  return ingredient;
}

/** A row as read, its `inStock` still 0/1. */
export type Stocked<T extends { inStock: boolean }> = Omit<T, "inStock"> & { inStock: number };

/** The statements of the reads in src/store/ingredients.ts, each dialect's in src/store/sqlite/ingredients.ts and src/store/pg/ingredients.ts. */
export interface IngredientStatements {
  /** Names in order case-insensitively, ties by exact bytes (docs/decisions.md#http); null filters match all, here and in prices. */
  listItems(workspaceId: number, category: string | null, inStock: number | null): Stocked<IngredientListItem>[];
  prices(workspaceId: number, category: string | null, inStock: number | null): Stocked<PriceEntry>[];
  /** Every category, each once, case-insensitively then by bytes. */
  categories(workspaceId: number): string[];
  detail(workspaceId: number, name: string): DetailRow | null;
  /** The rows of those of `names` the workspace holds, in no particular order: a solve's candidates in one query. */
  named(workspaceId: number, names: string[]): DetailRow[];
  /** In list order. */
  details(workspaceId: number): DetailRow[];
}

/** The statements of the writes in src/store/ingredient-changes.ts, each dialect's in src/store/sqlite/ingredient-changes.ts and src/store/pg/ingredient-changes.ts. */
export interface IngredientChangeStatements {
  /** PostgreSQL's outbox lock, taken first so event ids commit in order (src/store/pg/events.ts); SQLite's one writer needs none. */
  lockOutbox(): void;
  /** The ingredient, its row held to the transaction's end where a row can be (PostgreSQL's FOR UPDATE). Throws NotFoundError. */
  lockedIngredient(workspaceId: number, name: string): IngredientDetail;
  /** The row alone: its history entry and event are the operation's. */
  insertIngredient(workspaceId: number, input: CreateIngredient, createdAt: string, updatedAt: string): void;
  setPrice(workspaceId: number, name: string, point: PricePoint, co2e: number | null, now: string): void;
}

/**
 * Whether a write failed on a unique key, in either dialect's words (bun:sqlite's code, PostgreSQL's
 * SQLSTATE 23505): another connection inserted the same name first.
 * @example if (isUniqueViolation(error)) throw new ConflictError(`Ingredient already exists: ${name}`)
 */
export const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" || (error as { errno?: string }).errno === "23505";
