/**
 * The what-if parameters of an optimization, read from the raw query string by their own rules
 * (docs/decisions.md#least-cost-formulation): `include` is split at literal commas and each part then
 * percent-decoded, so a comma inside a name travels as `%2C`; each `price` value is percent-decoded and
 * then split at its last `=`, so a name may hold `=`. `+` is a space, as in every form-encoded query.
 */
import { ValidationError } from "../domain/errors.ts";
import { PRICE_MAX } from "../schemas/ingredients.ts";

export interface WhatIf {
  include: string[];
  /** Last one wins for a name given twice. */
  prices: Map<string, number>;
}

export const PRICE_PROBLEM = "price must be NAME=VALUE with VALUE a number >= 0";
/** A what-if price is a price: at most 1e9 per ton, like every price a workspace holds. */
export const PRICE_RANGE_PROBLEM = `price must be NAME=VALUE with VALUE a number <= ${PRICE_MAX}`;
const NUMBER = /^\s*(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    throw new ValidationError("Malformed percent-escape in query");
  }
}

/**
 * One `NAME=VALUE` what-if price, already percent-decoded.
 * @example parsePrice("Soybean meal 48%=455") // { name: "Soybean meal 48%", price: 455 }
 * @example parsePrice("a=b=12") // { name: "a=b", price: 12 }
 */
export function parsePrice(text: string): { name: string; price: number } {
  const at = text.lastIndexOf("=");
  const value = at === -1 ? "" : text.slice(at + 1);
  const price = Number(value);
  if (at <= 0 || !NUMBER.test(value) || !Number.isFinite(price)) throw new ValidationError(PRICE_PROBLEM);
  if (price > PRICE_MAX) throw new ValidationError(PRICE_RANGE_PROBLEM);
  return { name: text.slice(0, at), price };
}

/**
 * `include` and `price` of a raw query string (unknown parameters ignored); names are checked by the caller.
 * @example whatIfOf("include=Wheat,Fish%20meal%2C%20hipro&price=Maize%3D240") // { include: ["Wheat", "Fish meal, hipro"], prices: Map { "Maize" => 240 } }
 */
export function whatIfOf(rawQuery: string): WhatIf {
  const include: string[] = [];
  const prices = new Map<string, number>();
  if (rawQuery === "") return { include, prices };
  for (const pair of rawQuery.split("&")) {
    const eq = pair.indexOf("=");
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const raw = eq === -1 ? "" : pair.slice(eq + 1);
    if (key === "include") {
      for (const part of raw.split(",")) if (part !== "") include.push(decode(part));
    } else if (key === "price") {
      const { name, price } = parsePrice(decode(raw));
      prices.set(name, price);
    }
  }
  return { include: [...new Set(include)], prices };
}
