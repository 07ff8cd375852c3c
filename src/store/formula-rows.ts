/** The non-SQL half of the formula reads, shared by both backends: groups stored as JSON text. */
import type { FormulaDetail, FormulaSummary } from "../schemas/formulas.ts";

/** A formula's row as selected for the detail view (same aliases on both backends). */
export interface FormulaRow extends FormulaSummary {
  nutrients: string;
  constraints: string;
}

/**
 * A formula in full from its row and its lines (in position order).
 * @example formulaDetailOf(row, lines).constraints.ratios // []
 */
export function formulaDetailOf(row: FormulaRow, ingredients: FormulaDetail["ingredients"]): FormulaDetail {
  const { nutrients, constraints, ...summary } = row;
  const stored = JSON.parse(constraints) as Partial<FormulaDetail["constraints"]>;
  // The field order of docs/decisions.md#formulas-and-files: the summary exactly as in the list, then the three groups.
  // Formulas saved before ratio constraints existed show `ratios: []` (docs/decisions.md#least-cost-formulation).
  const limits = { nutrients: stored.nutrients ?? [], ingredients: stored.ingredients ?? [], ratios: stored.ratios ?? [] };
  return { ...summary, ingredients, nutrients: JSON.parse(nutrients), constraints: limits };
}
