/**
 * The mill's lab analyses (table `analyses`, docs/decisions.md#lab-analyses): add, list with their
 * statistics, delete, and the sds the optimizer formulates with. Writes run inside their owner's
 * transaction. Each written once over src/store/sqlite/analyses.ts and src/store/pg/analyses.ts.
 */
import { analysisAddedEvent, type Analysis, type AnalysisInput } from "../domain/analyses.ts";
import type { AnalysisFileRow } from "../domain/analysis-file.ts";
import { newAnalysisId } from "../domain/ids.ts";
import type { Actor } from "../domain/ingredient-events.ts";
import { isoTime } from "../domain/time.ts";
import { analysisNotFound, atRow, foundIngredient, listing, toAnalysis, variabilityOf, type AnalysisStatements, type AnalysisWindow } from "./analysis-rows.ts";
import { recordEvent } from "./events.ts";
import { operation, statements, tx } from "./op.ts";
import { pgAnalyses } from "./pg/analyses.ts";
import { sqliteAnalyses } from "./sqlite/analyses.ts";

const q = statements<AnalysisStatements>(sqliteAnalyses, pgAnalyses);

function* ingredientRow(workspaceId: number, name: string) {
  return foundIngredient(yield* q.ingredientRow(workspaceId, name), name);
}

function* add(actor: Actor, name: string, input: AnalysisInput, events = true) {
  yield* tx.requireTransaction("addAnalysis");
  const ingredient = yield* ingredientRow(actor.workspaceId, name);
  const id = newAnalysisId();
  yield* q.insertAnalysis(id, actor.workspaceId, ingredient.id, JSON.stringify(input.nutrients), input.sampledAt, input.lot, input.lab, actor.now);
  const added: Analysis = { id, name, ...input, createdAt: actor.now };
  if (events) yield* recordEvent.steps(analysisAddedEvent(actor, added));
  return added;
}

/**
 * Record an analysis of the named ingredient (404 when the workspace lacks it).
 * @example addAnalysis(db, actor, "Maize", { nutrients: { CP: 7.9 }, sampledAt: "2026-11-20T08:00:00.000Z", lot: "L-112", lab: "NIR" }).id // "ana_…"
 */
export const addAnalysis = operation(add);

/**
 * The ingredient's analyses sampled in the window, newest sampledAt first (ties: newest created first), with their statistics.
 * @example listAnalyses(db, 1, "Maize", { from: "2026-01-01T00:00:00.000Z" }).stats.CP.sd // 0.6
 */
export const listAnalyses = operation(function* (workspaceId: number, name: string, window: AnalysisWindow = {}) {
  const ingredient = yield* ingredientRow(workspaceId, name);
  const rows = yield* q.analysisRows(ingredient.id, window.from ?? null, window.to ?? null);
  return listing(name, rows, JSON.parse(ingredient.nutrients));
});

/**
 * Delete one analysis of the workspace; what it was.
 * @example deleteAnalysis(db, 1, "ana_4Kp0cX9qLm2ZsT7e").name // "Maize"
 */
export const deleteAnalysis = operation(function* (workspaceId: number, id: string) {
  yield* tx.requireTransaction("deleteAnalysis");
  const row = yield* q.analysisRow(workspaceId, id);
  if (!row) throw analysisNotFound(id);
  yield* q.deleteAnalysis(id);
  return toAnalysis(row);
});

/**
 * The sds the optimizer uses for the named ingredients (docs/analyses.md): per key the ingredient's own
 * values have, the sample sd of the analyses carrying it sampled from `since` (inclusive) to `until`
 * (default now), when there are at least 3; every other key is absent (sd 0). Unknown names are absent.
 * @example variability(db, 1, ["Maize", "Soybean meal 48%"], "2025-11-26T00:00:00.000Z") // { Maize: { CP: 0.6 }, "Soybean meal 48%": { CP: 1.4 } }
 */
export const variability = operation(function* (workspaceId: number, names: readonly string[], since: string, until: string = isoTime(Date.now())) {
  return variabilityOf(yield* q.variabilityRows(workspaceId, names, since, until));
});

/**
 * `import analyses`: every row of a checked file added in the caller's one transaction, in file order,
 * each firing `analysis.added` unless `events` is false; an unknown name is refused naming its line.
 * @example transaction(db, () => writeAnalysisImport(db, actor, rows, true)) // 12
 */
export const writeAnalysisImport = operation(function* (actor: Actor, rows: readonly AnalysisFileRow[], events: boolean) {
  for (const row of rows) {
    try {
      yield* add(actor, row.name, row.input, events);
    } catch (error) {
      atRow(row, () => {
        throw error;
      });
    }
  }
  return rows.length;
});
