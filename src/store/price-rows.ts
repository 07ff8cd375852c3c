/** The price history's types and statements, shared by src/store/price-history.ts and both dialects' statements. */
import type { z } from "zod";
import type { PricePoint } from "../domain/ingredient-events.ts";
import type { priceHistoryResponse } from "../schemas/history.ts";
import type { PriceEntry, Stocked } from "./ingredient-rows.ts";

/** `data` of GET /v1/prices/:name, as its schema documents it: newest entry first. */
export type PriceHistory = z.output<typeof priceHistoryResponse>["data"];
export type PriceHistoryEntry = PriceHistory["history"][number];
export type PriceSource = PriceHistoryEntry["source"];

/** Bounds of a history listing: `from` inclusive, `to` exclusive; absent means open. */
export interface HistoryRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** One entry to append: the price and stock, when and from where. */
export type NewPriceEntry = PricePoint & { at: string; source: PriceSource };

/** The statements of src/store/price-history.ts, each dialect's in src/store/sqlite/price-history.ts and src/store/pg/price-history.ts. */
export interface PriceHistoryStatements {
  /** Append an entry for the workspace's ingredient `name` (SQLite's goes to its log and may move a fold step). */
  appendEntry(workspaceId: number, name: string, entry: NewPriceEntry): void;
  /** The entries of `name` from `from` (inclusive) to `to` (exclusive), null bounds open, newest first (of one instant, the later recorded first). */
  entries(workspaceId: number, name: string, from: string | null, to: string | null): Stocked<PriceHistoryEntry>[];
  /**
   * The price list as it stood at `at`: ingredients whose first entry is at or before it, each with the
   * last price and stock recorded at or before it, today's category, in list order. Null filters match
   * all; the stock filter applies to the stock status of then.
   */
  listAt(workspaceId: number, at: string, category: string | null, inStock: number | null): Stocked<PriceEntry>[];
  /**
   * The price of each ingredient (of one formula's, or all) at `at` by name: the last entry at or before
   * it, else the earliest entry (a formula's ingredient priced only later is costed at its first known price).
   */
  pricesInEffect(workspaceId: number, at: string, formulaId: string | null): Map<string, number>;
  /** Current prices by name (of one formula's ingredients, or all). */
  currentPrices(workspaceId: number, formulaId: string | null): Map<string, number>;
}
