/** How an answer names the formula limit a row stands for: a nutrient by key, an inclusion by name, a ratio by its two keys, the footprint cap by its kind. */
import type { Limit } from "./model.ts";

export type LimitTarget =
  | { kind: "nutrient"; key: string }
  | { kind: "ingredient"; name: string }
  | { kind: "ratio"; numerator: string; denominator: string }
  | { kind: "co2e" };

/** A limit of the formula itself (not the footprint cap a request adds). */
export type FormulaLimit = Exclude<Limit, { kind: "co2e" }>;
export type FormulaLimitTarget = Exclude<LimitTarget, { kind: "co2e" }>;

/** @example limitTarget({ kind: "nutrient", key: "CP", min: 21, max: null }) // { kind: "nutrient", key: "CP" } */
export function limitTarget(limit: FormulaLimit): FormulaLimitTarget;
export function limitTarget(limit: Limit): LimitTarget;
export function limitTarget(limit: Limit): LimitTarget {
  if (limit.kind === "nutrient") return { kind: "nutrient", key: limit.key };
  if (limit.kind === "ingredient") return { kind: "ingredient", name: limit.name };
  if (limit.kind === "ratio") return { kind: "ratio", numerator: limit.numerator, denominator: limit.denominator };
  return { kind: "co2e" };
}
