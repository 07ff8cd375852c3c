/** How an answer names the formula limit a row stands for: a nutrient by key, an inclusion by name, a ratio by its two keys. */
import type { Limit } from "./model.ts";

export type LimitTarget =
  | { kind: "nutrient"; key: string }
  | { kind: "ingredient"; name: string }
  | { kind: "ratio"; numerator: string; denominator: string };

/** @example limitTarget({ kind: "nutrient", key: "CP", min: 21, max: null }) // { kind: "nutrient", key: "CP" } */
export function limitTarget(limit: Limit): LimitTarget {
  if (limit.kind === "nutrient") return { kind: "nutrient", key: limit.key };
  if (limit.kind === "ingredient") return { kind: "ingredient", name: limit.name };
  return { kind: "ratio", numerator: limit.numerator, denominator: limit.denominator };
}
