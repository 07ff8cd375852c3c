/** SQLite's statements for src/store/costs.ts. */
import type { MoveLine, ReportFormulaRow, ReportLine } from "../../domain/cost-report.ts";
import type { CostStatements } from "../cost-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteCosts: SqliteStatements<CostStatements> = {
  footprintLines: (db, workspaceId, id) =>
    db
      .query(
        `SELECT l.ingredient AS name, l.percent AS percent, i.co2e AS co2e FROM formula_lines l
         LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
         WHERE l.workspace_id = ? AND l.formula_id = ? ORDER BY l.position`,
      )
      .all(workspaceId, id) as { name: string; percent: number; co2e: number | null }[],
  reportFormulas: (db, workspaceId) =>
    db
      .query("SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost FROM formulas WHERE workspace_id = ? ORDER BY id")
      .all(workspaceId) as ReportFormulaRow[],
  reportLines: (db, workspaceId) =>
    db
      .query("SELECT formula_id, ingredient, percent, amount, price, cost FROM formula_lines WHERE workspace_id = ? ORDER BY formula_id, position")
      .values(workspaceId) as ReportLine[],
  moveLines: (db, workspaceId, ingredient) =>
    db
      .query(
        `SELECT l.formula_id, f.name, f.batch_size, l.percent, l.ingredient, coalesce(i.price, l.price)
         FROM formula_lines l JOIN formulas f ON f.workspace_id = l.workspace_id AND f.id = l.formula_id
           LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
         WHERE l.workspace_id = ?1 AND l.formula_id IN (SELECT formula_id FROM formula_lines WHERE workspace_id = ?1 AND ingredient = ?2)
         ORDER BY l.formula_id, l.position`,
      )
      .values(workspaceId, ingredient) as MoveLine[],
};
