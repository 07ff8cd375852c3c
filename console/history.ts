/** Price histories as the console reads them: windows that stay the same all day (so answers are reused), and the price at an instant. */
import type { HistoryEntry } from "./types.ts";

const DAY = 86_400_000;

/** From 00:00 UTC `days` days ago, open-ended: the same URL all day long. */
export function historyWindow(days: number): { from: string } {
  return { from: new Date((Math.floor(Date.now() / DAY) - days) * DAY).toISOString() };
}

/** The price in effect at `t` (the last entry at or before it) in a history oldest first; null before the first. */
export function priceAt(history: readonly HistoryEntry[], t: number): number | null {
  let found: number | null = null;
  for (const h of history) {
    if (Date.parse(h.at) > t) break;
    found = h.price;
  }
  return found;
}
