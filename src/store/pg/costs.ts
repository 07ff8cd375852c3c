/** PostgreSQL's statements for ../costs.ts. */
import type { MoveLine, ReportFormulaRow, ReportLine } from "../../domain/cost-report.ts";
import type { CostStatements } from "../cost-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgCosts: PgStatements<CostStatements> = {
  footprintLines: async (sql, workspaceId, id) =>
    (await sql`SELECT l.ingredient AS name, l.percent AS percent, i.co2e AS co2e FROM formula_lines l
      LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
      WHERE l.workspace_id = ${workspaceId} AND l.formula_id = ${id} ORDER BY l.position`) as { name: string; percent: number; co2e: number | null }[],
  reportFormulas: async (sql, workspaceId) =>
    (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost" FROM formulas
      WHERE workspace_id = ${workspaceId} ORDER BY id`) as ReportFormulaRow[],
  reportLines: async (sql, workspaceId) =>
    (await sql`SELECT formula_id, ingredient, percent, amount, price, cost FROM formula_lines
      WHERE workspace_id = ${workspaceId} ORDER BY formula_id, position`.values()) as ReportLine[],
  moveLines: async (sql, workspaceId, ingredient) =>
    (await sql`SELECT l.formula_id, f.name, f.batch_size, l.percent, l.ingredient, coalesce(i.price, l.price)
      FROM formula_lines l JOIN formulas f ON f.workspace_id = l.workspace_id AND f.id = l.formula_id
        LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
      WHERE l.workspace_id = ${workspaceId} AND l.formula_id IN (SELECT formula_id FROM formula_lines WHERE workspace_id = ${workspaceId} AND ingredient = ${ingredient})
      ORDER BY l.formula_id, l.position`.values()) as MoveLine[],
};
