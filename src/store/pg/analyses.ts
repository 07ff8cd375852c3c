/** PostgreSQL's twins of ../analyses.ts: same arguments after the connection, same results, same order. */
import type { SQL } from "bun";
import { analysisAddedEvent, type Analysis, type AnalysisInput } from "../../domain/analyses.ts";
import type { AnalysisFileRow } from "../../domain/analysis-file.ts";
import { newAnalysisId } from "../../domain/ids.ts";
import type { Actor } from "../../domain/ingredient-events.ts";
import { isoTime } from "../../domain/time.ts";
import { analysisNotFound, atRow, foundIngredient, listing, toAnalysis, variabilityOf, type AnalysisListing, type AnalysisRow, type AnalysisWindow, type Variability, type VariabilityRow } from "../analysis-rows.ts";
import { recordEvent } from "./events.ts";
import { unmatchable } from "./text.ts";

async function ingredientRow(sql: SQL, workspaceId: number, name: string): Promise<{ id: number; nutrients: string }> {
  const [row] = unmatchable(name) ? [] : ((await sql`SELECT id, nutrients FROM ingredients WHERE workspace_id = ${workspaceId} AND name = ${name}`) as { id: number; nutrients: string }[]);
  return foundIngredient(row, name);
}

const SELECT = (sql: SQL) => sql`SELECT a.analysis_id AS id, i.name, a.nutrients, a.sampled_at AS "sampledAt", a.lot, a.lab, a.created_at AS "createdAt"
  FROM analyses a JOIN ingredients i ON i.id = a.ingredient_id`;

/** @example (await addAnalysis(tx, actor, "Maize", { nutrients: { CP: 7.9 }, sampledAt, lot: null, lab: null })).id // "ana_…" */
export async function addAnalysis(sql: SQL, actor: Actor, name: string, input: AnalysisInput, events = true): Promise<Analysis> {
  const ingredient = await ingredientRow(sql, actor.workspaceId, name);
  const id = newAnalysisId();
  await sql`INSERT INTO analyses (analysis_id, workspace_id, ingredient_id, nutrients, sampled_at, lot, lab, created_at)
    VALUES (${id}, ${actor.workspaceId}, ${ingredient.id}, ${JSON.stringify(input.nutrients)}, ${input.sampledAt}, ${input.lot}, ${input.lab}, ${actor.now})`;
  const added: Analysis = { id, name, ...input, createdAt: actor.now };
  if (events) await recordEvent(sql, analysisAddedEvent(actor, added));
  return added;
}

/** @example (await listAnalyses(sql, 1, "Maize", {})).stats.CP.sd // 0.6 */
export async function listAnalyses(sql: SQL, workspaceId: number, name: string, window: AnalysisWindow = {}): Promise<AnalysisListing> {
  const ingredient = await ingredientRow(sql, workspaceId, name);
  const from = window.from ?? null;
  const to = window.to ?? null;
  const rows = (await sql`${SELECT(sql)} WHERE a.ingredient_id = ${ingredient.id}
    AND (${from}::text IS NULL OR a.sampled_at >= ${from}) AND (${to}::text IS NULL OR a.sampled_at < ${to})
    ORDER BY a.sampled_at DESC, a.id DESC`) as AnalysisRow[];
  return listing(name, rows, JSON.parse(ingredient.nutrients));
}

/** @example (await deleteAnalysis(tx, 1, "ana_4Kp0cX9qLm2ZsT7e")).name // "Maize" */
export async function deleteAnalysis(sql: SQL, workspaceId: number, id: string): Promise<Analysis> {
  const [row] = unmatchable(id) ? [] : ((await sql`${SELECT(sql)} WHERE a.workspace_id = ${workspaceId} AND a.analysis_id = ${id}`) as AnalysisRow[]);
  if (!row) throw analysisNotFound(id);
  await sql`DELETE FROM analyses WHERE analysis_id = ${id}`;
  return toAnalysis(row);
}

/** @example await variability(sql, 1, ["Maize"], "2025-11-26T00:00:00.000Z") // { Maize: { CP: 0.6 } } */
export async function variability(sql: SQL, workspaceId: number, names: readonly string[], since: string, until: string = isoTime(Date.now())): Promise<Variability> {
  const asked = names.filter((n) => !unmatchable(n));
  const rows = (await sql`SELECT i.name, i.nutrients AS book, a.nutrients FROM ingredients i
    LEFT JOIN analyses a ON a.ingredient_id = i.id AND a.sampled_at >= ${since} AND a.sampled_at <= ${until}
    WHERE i.workspace_id = ${workspaceId} AND i.name = ANY(${sql.array(asked, "text")}::text[]) ORDER BY i.id, a.id`) as VariabilityRow[];
  return variabilityOf(rows);
}

/** @example await writeAnalysisImport(tx, actor, rows, true) // 12 */
export async function writeAnalysisImport(sql: SQL, actor: Actor, rows: readonly AnalysisFileRow[], events: boolean): Promise<number> {
  for (const row of rows) await atRow(row, () => addAnalysis(sql, actor, row.name, row.input, events));
  return rows.length;
}
