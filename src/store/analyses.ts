/**
 * The mill's lab analyses (table `analyses`, docs/decisions.md#lab-analyses): add, list with their
 * statistics, delete, and the sds the optimizer formulates with. Writes run inside their owner's transaction.
 */
import type { Database } from "bun:sqlite";
import { analysisAddedEvent, type Analysis, type AnalysisInput } from "../domain/analyses.ts";
import type { AnalysisFileRow } from "../domain/analysis-file.ts";
import { newAnalysisId } from "../domain/ids.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import { isoTime } from "../domain/time.ts";
import { analysisNotFound, atRow, foundIngredient, listing, toAnalysis, variabilityOf, type AnalysisListing, type AnalysisRow, type AnalysisWindow, type Variability, type VariabilityRow } from "./analysis-rows.ts";
import { recordEvent } from "./events.ts";
import { requireTransaction } from "./transaction.ts";

const SELECT = `SELECT a.analysis_id AS id, i.name, a.nutrients, a.sampled_at AS sampledAt, a.lot, a.lab, a.created_at AS createdAt
  FROM analyses a JOIN ingredients i ON i.id = a.ingredient_id`;

function ingredientRow(db: Database, workspaceId: number, name: string): { id: number; nutrients: string } {
  return foundIngredient(db.query("SELECT id, nutrients FROM ingredients WHERE workspace_id = ? AND name = ?").get(workspaceId, name) as { id: number; nutrients: string } | null, name);
}

/**
 * Record an analysis of the named ingredient (404 when the workspace lacks it).
 * @example addAnalysis(db, actor, "Maize", { nutrients: { CP: 7.9 }, sampledAt: "2026-11-20T08:00:00.000Z", lot: "L-112", lab: "NIR" }).id // "ana_…"
 */
export function addAnalysis(db: Database, actor: Actor, name: string, input: AnalysisInput, events = true): Analysis {
  requireTransaction(db, "addAnalysis");
  const ingredient = ingredientRow(db, actor.workspaceId, name);
  const id = newAnalysisId();
  db.query("INSERT INTO analyses (analysis_id, workspace_id, ingredient_id, nutrients, sampled_at, lot, lab, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
    id,
    actor.workspaceId,
    ingredient.id,
    JSON.stringify(input.nutrients),
    input.sampledAt,
    input.lot,
    input.lab,
    actor.now,
  );
  const added: Analysis = { id, name, ...input, createdAt: actor.now };
  if (events) recordEvent(db, analysisAddedEvent(actor, added));
  return added;
}

/**
 * The ingredient's analyses sampled in the window, newest sampledAt first (ties: newest created first), with their statistics.
 * @example listAnalyses(db, 1, "Maize", { from: "2026-01-01T00:00:00.000Z" }).stats.CP.sd // 0.6
 */
export function listAnalyses(db: Database, workspaceId: number, name: string, window: AnalysisWindow = {}): AnalysisListing {
  const ingredient = ingredientRow(db, workspaceId, name);
  const rows = db
    .query(`${SELECT} WHERE a.ingredient_id = ?1 AND (?2 IS NULL OR a.sampled_at >= ?2) AND (?3 IS NULL OR a.sampled_at < ?3) ORDER BY a.sampled_at DESC, a.id DESC`)
    .all(ingredient.id, window.from ?? null, window.to ?? null) as AnalysisRow[];
  return listing(name, rows, JSON.parse(ingredient.nutrients));
}

/**
 * Delete one analysis of the workspace; what it was.
 * @example deleteAnalysis(db, 1, "ana_4Kp0cX9qLm2ZsT7e").name // "Maize"
 */
export function deleteAnalysis(db: Database, workspaceId: number, id: string): Analysis {
  requireTransaction(db, "deleteAnalysis");
  const row = db.query(`${SELECT} WHERE a.workspace_id = ? AND a.analysis_id = ?`).get(workspaceId, id) as AnalysisRow | null;
  if (!row) throw analysisNotFound(id);
  db.query("DELETE FROM analyses WHERE analysis_id = ?").run(id);
  return toAnalysis(row);
}

/**
 * The sds the optimizer uses for the named ingredients (docs/analyses.md): per key the ingredient's own
 * values have, the sample sd of the analyses carrying it sampled from `since` (inclusive) to `until`
 * (default now), when there are at least 3; every other key is absent (sd 0). Unknown names are absent.
 * @example variability(db, 1, ["Maize", "Soybean meal 48%"], "2025-11-26T00:00:00.000Z") // { Maize: { CP: 0.6 }, "Soybean meal 48%": { CP: 1.4 } }
 */
export function variability(db: Database, workspaceId: number, names: readonly string[], since: string, until: string = isoTime(Date.now())): Variability {
  const rows = db
    .query(
      `SELECT i.name, i.nutrients AS book, a.nutrients FROM ingredients i
       LEFT JOIN analyses a ON a.ingredient_id = i.id AND a.sampled_at >= ?2 AND a.sampled_at <= ?3
       WHERE i.workspace_id = ?1 AND i.name IN (SELECT value FROM json_each(?4)) ORDER BY i.id, a.id`,
    )
    .all(workspaceId, since, until, JSON.stringify(names)) as VariabilityRow[];
  return variabilityOf(rows);
}

/**
 * `import analyses`: every row of a checked file added in the caller's one transaction, in file order,
 * each firing `analysis.added` unless `events` is false; an unknown name is refused naming its line.
 * @example transaction(db, () => writeAnalysisImport(db, actor, rows, true)) // 12
 */
export function writeAnalysisImport(db: Database, actor: Actor, rows: readonly AnalysisFileRow[], events: boolean): number {
  for (const row of rows) atRow(row, () => addAnalysis(db, actor, row.name, row.input, events));
  return rows.length;
}
