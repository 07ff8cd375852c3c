/** SQLite's statements for src/store/formulas.ts. */
import type { FormulaDetail, FormulaSummary } from "../../schemas/formulas.ts";
import type { FormulaRow, FormulaStatements } from "../formula-rows.ts";
import type { SqliteStatements } from "../op.ts";

const SUMMARY = `SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost, created_at AS createdAt FROM formulas`;

export const sqliteFormulas: SqliteStatements<FormulaStatements> = {
  // Newest first, ties by id in byte order (SQLite's BINARY collation compares the UTF-8 bytes).
  summaries: (db, workspaceId, species, subcategory) =>
    db
      .query(`${SUMMARY} WHERE workspace_id = ?1 AND (?2 IS NULL OR species = ?2) AND (?3 IS NULL OR subcategory = ?3) ORDER BY created_at DESC, id`)
      .all(workspaceId, species, subcategory) as FormulaSummary[],
  formulaRow: (db, workspaceId, id) =>
    db
      .query(
        `SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost, created_at AS createdAt, nutrients, constraints
         FROM formulas WHERE workspace_id = ? AND id = ?`,
      )
      .get(workspaceId, id) as FormulaRow | null,
  lines: (db, workspaceId, id) =>
    db
      .query("SELECT ingredient AS name, percent, amount, price, cost FROM formula_lines WHERE workspace_id = ? AND formula_id = ? ORDER BY position")
      .all(workspaceId, id) as FormulaDetail["ingredients"],
  exists: (db, workspaceId, id) => db.query("SELECT 1 FROM formulas WHERE workspace_id = ? AND id = ?").get(workspaceId, id) !== null,
  insertFormula: (db, workspaceId, f) => {
    db.query(
      `INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(workspaceId, f.id, f.name, f.species, f.subcategory, f.batchSize, f.totalCost, f.createdAt, JSON.stringify(f.nutrients), JSON.stringify(f.constraints));
  },
  insertLines: (db, workspaceId, formulaId, lines) => {
    const line = db.query(
      `INSERT INTO formula_lines (workspace_id, formula_id, position, ingredient, percent, amount, price, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    lines.forEach((row, position) => line.run(workspaceId, formulaId, position, row.name, row.percent, row.amount, row.price, row.cost));
  },
  deleteFormula: (db, workspaceId, id) => db.query("DELETE FROM formulas WHERE workspace_id = ? AND id = ?").run(workspaceId, id).changes > 0,
  formulasUsing: (db, workspaceId, ingredient) =>
    (db.query("SELECT DISTINCT formula_id AS id FROM formula_lines WHERE workspace_id = ? AND ingredient = ? ORDER BY formula_id").all(workspaceId, ingredient) as { id: string }[]).map(
      (r) => r.id,
    ),
};
