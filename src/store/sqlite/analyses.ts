/** SQLite's statements for src/store/analyses.ts. */
import type { AnalysisRow, AnalysisStatements, VariabilityRow } from "../analysis-rows.ts";
import type { SqliteStatements } from "../op.ts";

const SELECT = `SELECT a.analysis_id AS id, i.name, a.nutrients, a.sampled_at AS sampledAt, a.lot, a.lab, a.created_at AS createdAt
  FROM analyses a JOIN ingredients i ON i.id = a.ingredient_id`;

export const sqliteAnalyses: SqliteStatements<AnalysisStatements> = {
  ingredientRow: (db, workspaceId, name) =>
    db.query("SELECT id, nutrients FROM ingredients WHERE workspace_id = ? AND name = ?").get(workspaceId, name) as { id: number; nutrients: string } | null,
  insertAnalysis: (db, id, workspaceId, ingredientId, nutrients, sampledAt, lot, lab, createdAt) => {
    db.query("INSERT INTO analyses (analysis_id, workspace_id, ingredient_id, nutrients, sampled_at, lot, lab, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
      id,
      workspaceId,
      ingredientId,
      nutrients,
      sampledAt,
      lot,
      lab,
      createdAt,
    );
  },
  analysisRows: (db, ingredientId, from, to) =>
    db
      .query(`${SELECT} WHERE a.ingredient_id = ?1 AND (?2 IS NULL OR a.sampled_at >= ?2) AND (?3 IS NULL OR a.sampled_at < ?3) ORDER BY a.sampled_at DESC, a.id DESC`)
      .all(ingredientId, from, to) as AnalysisRow[],
  analysisRow: (db, workspaceId, id) => db.query(`${SELECT} WHERE a.workspace_id = ? AND a.analysis_id = ?`).get(workspaceId, id) as AnalysisRow | null,
  deleteAnalysis: (db, id) => {
    db.query("DELETE FROM analyses WHERE analysis_id = ?").run(id);
  },
  variabilityRows: (db, workspaceId, names, since, until) =>
    db
      .query(
        `SELECT i.name, i.nutrients AS book, a.nutrients FROM ingredients i
         LEFT JOIN analyses a ON a.ingredient_id = i.id AND a.sampled_at >= ?2 AND a.sampled_at <= ?3
         WHERE i.workspace_id = ?1 AND i.name IN (SELECT value FROM json_each(?4)) ORDER BY i.id, a.id`,
      )
      .all(workspaceId, since, until, JSON.stringify(names)) as VariabilityRow[],
};
