/** PostgreSQL's statements for src/store/formulas.ts. Ids and times are COLLATE "C", as SQLite's BINARY. */
import type { FormulaDetail, FormulaSummary } from "../../schemas/formulas.ts";
import type { FormulaRow, FormulaStatements } from "../formula-rows.ts";
import type { PgStatements } from "../op.ts";
import { unmatchable } from "./text.ts";

export const pgFormulas: PgStatements<FormulaStatements> = {
  summaries: async (sql, workspaceId, species, subcategory) => {
    if (unmatchable(species, subcategory)) return [];
    return (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost", created_at AS "createdAt" FROM formulas
      WHERE workspace_id = ${workspaceId} AND (${species}::text IS NULL OR species = ${species}) AND (${subcategory}::text IS NULL OR subcategory = ${subcategory})
      ORDER BY created_at DESC, id`) as FormulaSummary[];
  },
  formulaRow: async (sql, workspaceId, id) => {
    if (unmatchable(id)) return null;
    const [row] = (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost", created_at AS "createdAt", nutrients, constraints
      FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id}`) as FormulaRow[];
    return row ?? null;
  },
  lines: async (sql, workspaceId, id) => [
    ...((await sql`SELECT ingredient AS name, percent, amount, price, cost FROM formula_lines
      WHERE workspace_id = ${workspaceId} AND formula_id = ${id} ORDER BY position`) as FormulaDetail["ingredients"]),
  ],
  exists: async (sql, workspaceId, id) => !unmatchable(id) && (await sql`SELECT 1 FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id}`).length > 0,
  insertFormula: async (sql, workspaceId, f) => {
    await sql`INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints)
      VALUES (${workspaceId}, ${f.id}, ${f.name}, ${f.species}, ${f.subcategory}, ${f.batchSize}, ${f.totalCost}, ${f.createdAt}, ${JSON.stringify(f.nutrients)}, ${JSON.stringify(f.constraints)})`;
  },
  insertLines: async (sql, workspaceId, formulaId, lines) => {
    const rows = lines.map((row, position) => ({
      workspace_id: workspaceId,
      formula_id: formulaId,
      position,
      ingredient: row.name,
      percent: row.percent,
      amount: row.amount,
      price: row.price,
      cost: row.cost,
    }));
    await sql`INSERT INTO formula_lines ${sql(rows)}`;
  },
  deleteFormula: async (sql, workspaceId, id) => (await sql`DELETE FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`).length > 0,
  formulasUsing: async (sql, workspaceId, ingredient) =>
    ((await sql`SELECT DISTINCT formula_id AS id FROM formula_lines WHERE workspace_id = ${workspaceId} AND ingredient = ${ingredient} ORDER BY formula_id`) as { id: string }[]).map(
      (r) => r.id,
    ),
};
