/**
 * What `formula optimize --confidence` and `formula confidence` share (docs/decisions.md#optimizing-to-a-confidence-level):
 * the options read by the API's own rules, and the odds of an optimized mix as a nutritionist reads them.
 */
import { InvalidArgumentError } from "commander";
import { withUnit, type NutrientListing } from "../src/domain/nutrients.ts";
import { analysesSince, probability } from "../src/schemas/confidence.ts";
import type { ConfidenceResult } from "../src/schemas/optimize.ts";
import { printRows, signed } from "./common.ts";
import type { Io } from "./io.ts";

/** A `--confidence`/`--from`/`--to` value, read by the API's own rule (0.5 to 0.999). */
export const probabilityOption = (flag: string) => (value: string): number => {
  const parsed = probability(flag, null).safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`--${parsed.error.issues[0]!.message}`);
  return parsed.data!;
};

/** `--analyses-since`, read as the API's `analysesSince` (an instant or a date). */
export const sinceOption = (value: string): string => {
  const parsed = analysesSince.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`--${parsed.error.issues[0]!.message.replace(/^analysesSince/, "analyses-since")}`);
  return parsed.data!;
};

export const SINCE_HELP = "count lab analyses sampled from this instant or date (default: the last 365 days)";

/**
 * The odds of the optimized mix, the premium and the blanket margin, as a nutritionist reads them.
 * @example printOdds(io, result, definitions)
 */
export function printOdds(io: Io, r: ConfidenceResult, definitions: ReadonlyMap<string, NutrientListing>): void {
  const out = (text: string) => io.out(text);
  const money = (v: number | null) => (v === null ? "-" : v.toFixed(2));
  out(`\nAt confidence ${r.confidence} (each nutrient limit met with at least this probability; sds from the lab analyses):\n`);
  out(`  cost per ton ${money(r.optimized?.costPerTon ?? null)}; on book values (confidence 0.5) ${money(r.deterministicCost)}; premium ${r.premium === null ? "-" : signed(r.premium)} per ton\n`);
  out(`  a blanket margin for the same odds on the book-value mix (every min raised, every max lowered by z × its sd) would cost ${r.blanketMarginCost === null ? "- (no mix meets the padded limits)" : `${money(r.blanketMarginCost)} per ton`}\n`);
  if (r.optimized === null) return;
  out("\nOdds of the optimized mix (mean and sd of each nutrient; probability of meeting each limit):\n");
  const unit = (key: string) => definitions.get(key)?.unit;
  const probability = (p: number | null) => (p === null ? "-" : `${(p * 100).toFixed(2)} %`);
  printRows(
    io,
    Object.entries(r.optimized.odds).map(([key, o]) => ({ key, ...o })),
    [
      ["NUTRIENT", (o) => o.key],
      ["MEAN", (o) => withUnit(o.mean, unit(o.key))],
      ["SD", (o) => withUnit(o.sd, unit(o.key))],
      ["MARGIN", (o) => (o.margin === null ? "-" : withUnit(o.margin, unit(o.key)))],
      ["P(≥ MIN)", (o) => probability(o.probabilityMin)],
      ["P(≤ MAX)", (o) => probability(o.probabilityMax)],
    ],
    false,
  );
  out("Shadow prices above confidence 0.5 are local: they hold at this optimum only.\n");
}
