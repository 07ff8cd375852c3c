/**
 * A mix's nutrients against its limits, with units: what `formula show` and `formula optimize` print
 * under the composition. Whether a limit holds is the import's own check (checkConstraints), so the
 * table and the import's warning never disagree.
 */
import { checkConstraints, round, type FormulaConstraints } from "../src/domain/formula-math.ts";
import { withUnit, type NutrientListing } from "../src/domain/nutrients.ts";
import { printRows } from "./common.ts";
import type { Io } from "./io.ts";

interface Mix {
  ingredients: ReadonlyArray<{ name: string; percent: number }>;
  nutrients: Readonly<Record<string, number>>;
  constraints: FormulaConstraints;
}

interface Row {
  label: string;
  value: string;
  min: string;
  max: string;
  basis: string;
  check: string;
}

/**
 * Every achieved nutrient (and every limited one the mix lacks, at 0), then each ratio limit, with
 * the unit and basis of its definition; CHECK says `ok`, `< min` or `> max`.
 * @example printLimits(io, formula, new Map(definitions.map((d) => [d.key, d])))
 */
export function printLimits(io: Io, mix: Mix, definitions: ReadonlyMap<string, NutrientListing>): void {
  const misses = new Map(checkConstraints(mix).map((v) => [`${v.kind} ${v.target} ${v.bound}`, v]));
  const check = (kind: string, target: string) => (misses.has(`${kind} ${target} min`) ? "< min" : misses.has(`${kind} ${target} max`) ? "> max" : "ok");
  const limits = new Map(mix.constraints.nutrients.map((c) => [c.key, c]));
  const keys = [...new Set([...Object.keys(mix.nutrients), ...limits.keys()])];
  const bound = (v: number | null | undefined, unit: string | null | undefined) => (v === null || v === undefined ? "-" : withUnit(v, unit));
  const rows: Row[] = keys.map((key) => {
    const unit = definitions.get(key)?.unit;
    const limit = limits.get(key);
    return {
      label: key,
      value: withUnit(Object.hasOwn(mix.nutrients, key) ? mix.nutrients[key]! : 0, unit),
      min: bound(limit?.min, unit),
      max: bound(limit?.max, unit),
      basis: definitions.get(key)?.basis ?? (definitions.has(key) ? "-" : "(undefined)"),
      check: limit ? check("nutrient", key) : "",
    };
  });
  const achieved = (key: string) => (Object.hasOwn(mix.nutrients, key) ? mix.nutrients[key]! : 0);
  for (const r of mix.constraints.ratios ?? []) {
    const den = achieved(r.denominator);
    rows.push({
      label: `${r.numerator}:${r.denominator}`,
      value: den === 0 ? "undefined" : String(round(achieved(r.numerator) / den, 4)),
      min: bound(r.min, null),
      max: bound(r.max, null),
      basis: "ratio",
      check: check("ratio", `${r.numerator}/${r.denominator}`),
    });
  }
  printRows(io, rows, [["NUTRIENT", (r) => r.label], ["VALUE", (r) => r.value], ["MIN", (r) => r.min], ["MAX", (r) => r.max], ["BASIS", (r) => r.basis], ["CHECK", (r) => r.check]], false);
}
