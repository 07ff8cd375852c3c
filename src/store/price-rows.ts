/** The price history's types and statements, shared by src/store/price-history.ts and both dialects' statements. */
import type { z } from "zod";
import type { PricePoint } from "../domain/ingredient-events.ts";
import type { priceHistoryResponse } from "../schemas/history.ts";

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
}
