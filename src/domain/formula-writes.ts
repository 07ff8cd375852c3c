/**
 * What writing a formula reports beside itself, the same for PUT /v1/formulas/:id and
 * `import formulas` on both backends: the import's warning for limits the saved composition misses,
 * and the opt-in `formula.updated` event.
 */
import type { FormulaDetail, FormulaImport } from "../schemas/formulas.ts";
import type { NewEvent } from "./events.ts";
import { ValidationError } from "./errors.ts";
import { checkConstraints, round } from "./formula-math.ts";
import { violationText } from "./violations.ts";
import type { Actor } from "./ingredient-events.ts";

/** Percents sum to 100 ± this (docs/decisions.md#formulas-and-files). */
export const SUM_TOLERANCE = 0.01;

/**
 * Throws a ValidationError (prefixed with `label`, if any) when the percents do not sum to 100 ± 0.01.
 * @example checkPercentSum(formula, "Formula 2") // "Formula 2: percents sum to 99.5, not 100 (± 0.01)"
 */
export function checkPercentSum(formula: Pick<FormulaImport, "ingredients">, label = ""): void {
  const sum = round(formula.ingredients.reduce((acc, row) => acc + row.percent, 0), 6);
  // Compared after rounding: 59.99 + 40 is 99.99000000000001 in binary, and it is within the tolerance.
  if (round(Math.abs(sum - 100), 6) > SUM_TOLERANCE) throw new ValidationError(`${label ? `${label}: ` : ""}percents sum to ${sum}, not 100 (± ${SUM_TOLERANCE})`);
}

/**
 * The import's warning for a saved formula that misses its own limits, or none.
 * @example unmetLimitsWarnings(starter) // ["starter does not meet its constraints: CP 24.5 < min 30"]
 */
export function unmetLimitsWarnings(f: FormulaDetail): string[] {
  const missed = checkConstraints(f).map(violationText);
  return missed.length === 0 ? [] : [`${f.id} does not meet its constraints: ${missed.join(", ")}`];
}

/**
 * `formula.updated`: ordered per webhook with the formula's other writes (`formula:<id>` where
 * ingredient events put the ingredient's name).
 * @example recordEvent(db, formulaUpdatedEvent(actor, detail))
 */
export function formulaUpdatedEvent(actor: Actor, f: Pick<FormulaDetail, "id" | "name">): NewEvent {
  return {
    workspaceId: actor.workspaceId,
    type: "formula.updated",
    ingredient: `formula:${f.id}`,
    payload: { id: f.id, name: f.name, timestamp: actor.now },
    keyId: actor.keyId,
    now: actor.now,
  };
}
