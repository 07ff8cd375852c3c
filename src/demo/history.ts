/**
 * The demo's price history: weekly quotes going back more than a year from today's price, a seeded walk
 * per ingredient (the same demo file gives the same history relative to its day), so that history,
 * formula costs and the cost-changes report have something to show from the first `make run`.
 */
import { seeded } from "../domain/random.ts";

/** How far back the demo's weekly quotes go at least: 58 weeks, over 400 days (seed.ts goes further when a formula is older). */
export const MIN_DEMO_WEEKS = 58;
export const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Weekly moves of up to this fraction; minerals and additives are steadier than commodities. */
const VOLATILITY: Record<string, number> = { Minerals: 0.01, Additives: 0.012 };
const DEFAULT_VOLATILITY = 0.03;
/** Each week back is pulled this much towards today's price, so the walk stays plausible. */
const PULL = 0.15;
/** Ingredients out of stock today went out this many weeks ago. */
const OUT_OF_STOCK_WEEKS = 3;

export interface DemoQuote {
  price: number;
  inStock: boolean;
  at: string;
}

/** FNV-1a of the name: each ingredient walks its own way, the same way every time. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The weekly quotes before `now`, oldest first, each different from the week after it (a repeated
 * quote would be no change). Today's quote, the current price, is not among them.
 * @example demoQuotes({ name: "Maize", category: "Cereals", price: 228, inStock: true }, Date.now(), 58).length // 58
 */
export function demoQuotes(ingredient: { name: string; category: string; price: number; inStock: boolean }, nowMs: number, weeks: number): DemoQuote[] {
  const random = seeded(hash(ingredient.name));
  const volatility = VOLATILITY[ingredient.category] ?? DEFAULT_VOLATILITY;
  const quotes: DemoQuote[] = [];
  let newer = ingredient.price;
  for (let week = 1; week <= weeks; week++) {
    const drift = newer * volatility * (2 * random() - 1) + PULL * (ingredient.price - newer);
    let price = Math.max(1, Math.round(newer + drift));
    if (price === newer) price = newer + (random() < 0.5 && newer > 1 ? -1 : 1);
    const inStock = ingredient.inStock || week > OUT_OF_STOCK_WEEKS;
    quotes.push({ price, inStock, at: new Date(nowMs - week * WEEK_MS).toISOString() });
    newer = price;
  }
  return quotes.reverse();
}
