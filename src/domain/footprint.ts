/**
 * A formula's carbon footprint from its composition and today's `co2e` values
 * (docs/decisions.md#carbon-footprint): kg CO2e per tonne of feed, Σ percent/100 × co2e × 1000, and the
 * rows whose footprint is unknown (then the total is unknown too: a partial sum would look better than it is).
 */
import { round } from "./formula-math.ts";

/** kg CO2e per tonne of feed for each percent of an ingredient of 1 kg CO2e per kg. */
export const KG_PER_TONNE_PER_PERCENT = 10;

export interface Footprint {
  /** kg CO2e per tonne of feed, 1 decimal; null when a row's co2e is unknown. */
  co2ePerTon: number | null;
  /** Names of the rows whose co2e is null, in composition order. */
  co2eUnknown: string[];
}

/**
 * kg CO2e per tonne of a mix (percents), unrounded, or null when a row of it has no known footprint (even at 0 %).
 * @example co2ePerTonOf([{ co2e: 0.4, percent: 60 }, { co2e: 4.5, percent: 40 }]) // 2040
 */
export function co2ePerTonOf(rows: ReadonlyArray<{ co2e?: number | null; percent: number }>): number | null {
  let sum = 0;
  for (const r of rows) {
    if (typeof r.co2e !== "number") return null;
    sum += r.co2e * r.percent * KG_PER_TONNE_PER_PERCENT;
  }
  return sum;
}

/**
 * @example footprintOf([{ name: "Maize", percent: 60, co2e: 0.4 }, { name: "Premix", percent: 0.5, co2e: null }]) // { co2ePerTon: null, co2eUnknown: ["Premix"] }
 */
export function footprintOf(rows: ReadonlyArray<{ name: string; percent: number; co2e: number | null }>): Footprint {
  const total = co2ePerTonOf(rows);
  return { co2ePerTon: total === null ? null : round(total, 1), co2eUnknown: rows.filter((r) => r.co2e === null).map((r) => r.name) };
}
