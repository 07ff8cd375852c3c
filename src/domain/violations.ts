/**
 * A saved composition's misses of its own limits, worded once for every place that names them: the
 * import's warning lines, the savings worklist's `violations`.
 */
import { achievedNutrients, checkConstraints, type ConstraintViolation, type FormulaConstraints } from "./formula-math.ts";

/**
 * One miss as a person reads it.
 * @example violationText({ kind: "nutrient", target: "CP", bound: "min", limit: 45, value: 24.3 }) // "CP 24.3 < min 45"
 */
export function violationText(v: ConstraintViolation): string {
  return `${v.target} ${v.value ?? "undefined (denominator 0)"} ${v.bound === "min" ? "<" : ">"} ${v.bound} ${v.limit}`;
}

/**
 * The misses of a composition judged with the nutrient values given per ingredient (today's, for
 * the worklist): the achieved levels rounded to 4 decimals as a formula detail shows them.
 * @example compositionViolations([{ name: "Maize", percent: 100 }], (n) => ({ CP: 8.5 }), { nutrients: [{ key: "CP", min: 20, max: null }], ingredients: [] }) // ["CP 8.5 < min 20"]
 */
export function compositionViolations(
  rows: ReadonlyArray<{ name: string; percent: number }>,
  nutrientsOf: (name: string) => Readonly<Record<string, number>>,
  constraints: FormulaConstraints,
): string[] {
  const nutrients = achievedNutrients(rows.map((r) => ({ percent: r.percent, nutrients: nutrientsOf(r.name) })));
  return checkConstraints({ ingredients: rows, nutrients, constraints }).map(violationText);
}
