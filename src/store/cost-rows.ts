/** The statements of src/store/costs.ts, each dialect's in src/store/sqlite/costs.ts and src/store/pg/costs.ts. */
import type { MoveLine, ReportFormulaRow, ReportLine } from "../domain/cost-report.ts";

export interface CostStatements {
  /** A formula's lines in position order, each with its ingredient's `co2e` today (null: unknown or no such ingredient). */
  footprintLines(workspaceId: number, id: string): { name: string; percent: number; co2e: number | null }[];
  /** Saved formulas in id order. */
  reportFormulas(workspaceId: number): ReportFormulaRow[];
  /** Every formula line as an array, by formula id then position. */
  reportLines(workspaceId: number): ReportLine[];
  /** The lines of every formula using `ingredient`, each with its ingredient's current price (the line's own when gone), as arrays. */
  moveLines(workspaceId: number, ingredient: string): MoveLine[];
}
