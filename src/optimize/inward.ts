/**
 * Ranges as people read them (docs/decisions.md#answers-a-formulator-can-trust): rounded inward at 2
 * decimals, so every value shown lies inside the true range. A lower end rounds up, an upper end down;
 * a value within 1e-9 of a step counts as on it (0.85000000001 shows 0.85, not 0.86).
 */
import { round } from "../domain/formula-math.ts";
import type { ShadowPrice } from "./sensitivity.ts";

/** Float noise on an exact end must not cost a whole step. */
export const INWARD_TOLERANCE = 1e-9;

/**
 * v rounded at `decimals` toward +∞ ("up") or −∞ ("down"), a value within 1e-9 of a step taken as on it.
 * @example roundInward(0.85129, 2, "up") // 0.86
 * @example roundInward(0.85000000001, 2, "up") // 0.85
 */
export function roundInward(v: number, decimals: number, direction: "up" | "down"): number {
  const nearest = round(v, decimals);
  if (Math.abs(v - nearest) <= INWARD_TOLERANCE * Math.max(1, Math.abs(v))) return nearest;
  const step = 10 ** -decimals;
  return direction === "up" ? round(nearest < v ? nearest + step : nearest, decimals) : round(nearest > v ? nearest - step : nearest, decimals);
}

const up = (v: number | null) => (v === null ? null : roundInward(v, 2, "up"));
const down = (v: number | null) => (v === null ? null : roundInward(v, 2, "down"));

/**
 * A shadow price's validFrom..validTo as shown: inward; an inclusion limit's clipped to 0..100 (a percent).
 * A range narrower than the 2-decimal grid around its own limit shows the limit itself at both ends.
 * @example shownValidity({ limit: { kind: "nutrient", ... }, value: 0.9, validFrom: 0.8513, validTo: null, ... }) // { validFrom: 0.86, validTo: null }
 */
export function shownValidity(s: Pick<ShadowPrice, "limit" | "value" | "validFrom" | "validTo">): { validFrom: number | null; validTo: number | null } {
  let from = s.validFrom;
  let to = s.validTo;
  if (s.limit.kind === "ingredient") {
    from = Math.max(0, from ?? 0);
    to = Math.min(100, to ?? 100);
  }
  const validFrom = up(from);
  const validTo = down(to);
  if (validFrom !== null && validTo !== null && validFrom > validTo) return { validFrom: s.value, validTo: s.value };
  return { validFrom, validTo };
}

/**
 * A price range as shown: priceLow up and never below 0 (0 where the range reaches below 0 or has no
 * lower end), priceHigh down (null: no upper end).
 * @example shownPriceRange(-12.3, 251.456) // { priceLow: 0, priceHigh: 251.45 }
 */
export function shownPriceRange(low: number | null, high: number | null): { priceLow: number; priceHigh: number | null } {
  return { priceLow: low === null || low <= 0 ? 0 : up(low)!, priceHigh: down(high) };
}

/**
 * The price below which an excluded candidate enters, as shown: rounded down (null: never).
 * @example shownEntersBelow(173.459) // 173.45
 */
export const shownEntersBelow = (v: number | null): number | null => down(v);
