/**
 * The non-SQL half of the analyses both backends share (./analyses.ts, ./pg/analyses.ts): rows as the
 * API shows them, the listing with its statistics, the sds by ingredient, and the one 404.
 */
import { analysisStats, keySds, type Analysis, type NutrientStats } from "../domain/analyses.ts";
import { NotFoundError, ValidationError } from "../domain/errors.ts";

/** An analysis as selected: nutrients still JSON text. */
export type AnalysisRow = Omit<Analysis, "nutrients"> & { nutrients: string };

/** `?from=&to=` of the listing: ISO instants, `from` inclusive, `to` exclusive (as the price history's). */
export interface AnalysisWindow {
  from?: string | undefined;
  to?: string | undefined;
}

/** GET /v1/ingredients/:name/analyses's data. */
export interface AnalysisListing {
  name: string;
  analyses: Analysis[];
  stats: Record<string, NutrientStats>;
}

/** Per ingredient name, per nutrient key, the sd the optimizer uses (keys absent: sd 0). */
export type Variability = Record<string, Record<string, number>>;

/** @example toAnalysis(row).nutrients // { CP: 46.1 } */
export const toAnalysis = (r: AnalysisRow): Analysis => ({ id: r.id, name: r.name, nutrients: JSON.parse(r.nutrients), sampledAt: r.sampledAt, lot: r.lot, lab: r.lab, createdAt: r.createdAt });

/** @example listing("Maize", rows, { CP: 8.5 }) // { name: "Maize", analyses: [...], stats: { CP: {...} } } */
export function listing(name: string, rows: readonly AnalysisRow[], book: Record<string, number>): AnalysisListing {
  const analyses = rows.map(toAnalysis);
  return { name, analyses, stats: analysisStats(analyses, book) };
}

/** One row per ingredient asked for and analysis in the window (nutrients null when it has none). */
export interface VariabilityRow {
  name: string;
  book: string;
  nutrients: string | null;
}

/**
 * The sds of every ingredient found (one with no analyses maps to {}), from the rows of its analyses in the window.
 * @example variabilityOf([{ name: "Maize", book: '{"CP":8}', nutrients: '{"CP":7.5}' }, …]) // { Maize: { CP: 0.6 } }
 */
export function variabilityOf(rows: readonly VariabilityRow[]): Variability {
  const byName = new Map<string, { book: Record<string, number>; analyses: { nutrients: Record<string, number> }[] }>();
  for (const row of rows) {
    let entry = byName.get(row.name);
    if (!entry) byName.set(row.name, (entry = { book: JSON.parse(row.book), analyses: [] }));
    if (row.nutrients !== null) entry.analyses.push({ nutrients: JSON.parse(row.nutrients) });
  }
  const out: Variability = {};
  for (const [name, { book, analyses }] of byName) out[name] = keySds(analyses, book);
  return out;
}

/** @example throw analysisNotFound("ana_0000000000000000") */
export const analysisNotFound = (id: string): NotFoundError => new NotFoundError(`Analysis not found: ${id}`);

/** The ingredient row an analysis needs, or the 404 every ingredient route answers. @example foundIngredient(row, "Maize") */
export function foundIngredient<T>(row: T | null | undefined, name: string): T {
  if (row == null) throw new NotFoundError(`Ingredient not found: ${name}`);
  return row;
}

/**
 * A row of an import written, its refusal (an unknown name) naming the file's line; sync or async alike.
 * @example atRow(row, () => addAnalysis(db, actor, row.name, row.input, true)) // "line 4: Ingredient not found: Maiz"
 */
export function atRow<T>(row: { where: string }, write: () => T): T {
  const named = (error: unknown) => {
    if (error instanceof NotFoundError) throw new ValidationError(`${row.where}: ${error.message}`);
    throw error;
  };
  try {
    const result = write();
    return (result instanceof Promise ? result.catch(named) : result) as T;
  } catch (error) {
    return named(error);
  }
}

/** The statements of src/store/analyses.ts, each dialect's in src/store/sqlite/analyses.ts and src/store/pg/analyses.ts. */
export interface AnalysisStatements {
  ingredientRow(workspaceId: number, name: string): { id: number; nutrients: string } | null;
  insertAnalysis(id: string, workspaceId: number, ingredientId: number, nutrients: string, sampledAt: string, lot: string | null, lab: string | null, createdAt: string): void;
  /** Sampled in [from, to) (null: open), newest sampledAt first, ties newest created first. */
  analysisRows(ingredientId: number, from: string | null, to: string | null): AnalysisRow[];
  analysisRow(workspaceId: number, id: string): AnalysisRow | null;
  deleteAnalysis(id: string): void;
  /** The named ingredients' book values and analyses sampled in [since, until], by ingredient then analysis. */
  variabilityRows(workspaceId: number, names: readonly string[], since: string, until: string): VariabilityRow[];
}
