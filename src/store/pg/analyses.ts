/** PostgreSQL's statements for ../analyses.ts; names and ids with a NUL match nothing (./text.ts). */
import type { SQL } from "bun";
import type { AnalysisRow, AnalysisStatements, VariabilityRow } from "../analysis-rows.ts";
import type { PgStatements } from "../op.ts";
import { unmatchable } from "./text.ts";

const SELECT = (sql: SQL) => sql`SELECT a.analysis_id AS id, i.name, a.nutrients, a.sampled_at AS "sampledAt", a.lot, a.lab, a.created_at AS "createdAt"
  FROM analyses a JOIN ingredients i ON i.id = a.ingredient_id`;

export const pgAnalyses: PgStatements<AnalysisStatements> = {
  ingredientRow: async (sql, workspaceId, name) => {
    if (unmatchable(name)) return null;
    const [row] = (await sql`SELECT id, nutrients FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`) as { id: number; nutrients: string }[];
    return row ?? null;
  },
  insertAnalysis: async (sql, id, workspaceId, ingredientId, nutrients, sampledAt, lot, lab, createdAt) => {
    await sql`INSERT INTO analyses (analysis_id, workspace_id, ingredient_id, nutrients, sampled_at, lot, lab, created_at)
      VALUES (${id}, ${workspaceId}, ${ingredientId}, ${nutrients}, ${sampledAt}, ${lot}, ${lab}, ${createdAt})`;
  },
  analysisRows: async (sql, ingredientId, from, to) =>
    (await sql`${SELECT(sql)} WHERE a.ingredient_id = ${ingredientId}
      AND (${from}::text IS NULL OR a.sampled_at >= ${from}) AND (${to}::text IS NULL OR a.sampled_at < ${to})
      ORDER BY a.sampled_at DESC, a.id DESC`) as AnalysisRow[],
  analysisRow: async (sql, workspaceId, id) => {
    if (unmatchable(id)) return null;
    const [row] = (await sql`${SELECT(sql)} WHERE a.workspace_id = ${workspaceId} AND a.analysis_id = ${id}`) as AnalysisRow[];
    return row ?? null;
  },
  deleteAnalysis: async (sql, id) => {
    await sql`DELETE FROM analyses WHERE analysis_id = ${id}`;
  },
  variabilityRows: async (sql, workspaceId, names, since, until) => {
    const asked = names.filter((n) => !unmatchable(n));
    return (await sql`SELECT i.name, i.nutrients AS book, a.nutrients FROM ingredients i
      LEFT JOIN analyses a ON a.ingredient_id = i.id AND a.sampled_at >= ${since} AND a.sampled_at <= ${until}
      WHERE i.workspace_id = ${workspaceId} AND i.name = ANY(${sql.array(asked, "text")}::text[]) ORDER BY i.id, a.id`) as VariabilityRow[];
  },
};
