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

/** Optional, additive list filters (exact, case-sensitive matches). */
export interface FormulaFilters {
  species?: string | undefined;
  subcategory?: string | undefined;
}

/** The statements of src/store/formulas.ts, each dialect's in src/store/sqlite/formulas.ts and src/store/pg/formulas.ts. */
export interface FormulaStatements {
  /** Newest first, ties by id in byte order; null filters match every formula. */
  summaries(workspaceId: number, species: string | null, subcategory: string | null): FormulaSummary[];
  formulaRow(workspaceId: number, id: string): FormulaRow | null;
  /** In position order. */
  lines(workspaceId: number, id: string): FormulaDetail["ingredients"];
  exists(workspaceId: number, id: string): boolean;
  insertFormula(workspaceId: number, f: FormulaDetail): void;
  insertLines(workspaceId: number, formulaId: string, lines: FormulaDetail["ingredients"]): void;
  /** Whether a formula was deleted; its lines go with it (ON DELETE CASCADE). */
  deleteFormula(workspaceId: number, id: string): boolean;
  /** Ids of the formulas whose composition uses an ingredient, in id order. */
  formulasUsing(workspaceId: number, ingredient: string): string[];
}

/** The statements of src/store/formula-put.ts, each dialect's in src/store/sqlite/formula-put.ts and src/store/pg/formula-put.ts. */
export interface FormulaPutStatements {
  /** PostgreSQL: the outbox lock every write with an event takes first (ids commit in order; a concurrent PUT of the same id waits). SQLite: its one writer already holds it. */
  lockOutbox(): void;
  createdAt(workspaceId: number, id: string): string | null;
}
