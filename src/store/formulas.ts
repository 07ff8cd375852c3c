import type { Database } from "bun:sqlite";
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import type { FormulaDetail, FormulaSummary } from "../schemas/formulas.ts";
import { usedByPlans } from "./admin-rules.ts";
import { formulaDetailOf, type FormulaRow } from "./formula-rows.ts";
import { plansUsing } from "./plans.ts";

/** Optional, additive list filters (exact, case-sensitive matches). */
export interface FormulaFilters {
  species?: string | undefined;
  subcategory?: string | undefined;
}

const SUMMARY = `SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost, created_at AS createdAt FROM formulas`;
// Newest first, ties by id in byte order (SQLite's BINARY collation compares the UTF-8 bytes).
const NEWEST_FIRST = "ORDER BY created_at DESC, id";

/** @example listFormulas(db, 1, { species: "Poultry" }) // [{ id, name, species, subcategory, batchSize, totalCost, createdAt }] */
export function listFormulas(db: Database, workspaceId: number, filters: FormulaFilters = {}): FormulaSummary[] {
  return db
    .query(`${SUMMARY} WHERE workspace_id = ?1 AND (?2 IS NULL OR species = ?2) AND (?3 IS NULL OR subcategory = ?3) ${NEWEST_FIRST}`)
    .all(workspaceId, filters.species ?? null, filters.subcategory ?? null) as FormulaSummary[];
}

/** @example findFormula(db, 1, "broiler-starter") // FormulaDetail | null */
export function findFormula(db: Database, workspaceId: number, id: string): FormulaDetail | null {
  const row = db
    .query(
      `SELECT id, name, species, subcategory, batch_size AS batchSize, total_cost AS totalCost, created_at AS createdAt, nutrients, constraints
       FROM formulas WHERE workspace_id = ? AND id = ?`,
    )
    .get(workspaceId, id) as FormulaRow | null;
  if (!row) return null;
  const ingredients = db
    .query("SELECT ingredient AS name, percent, amount, price, cost FROM formula_lines WHERE workspace_id = ? AND formula_id = ? ORDER BY position")
    .all(workspaceId, id) as FormulaDetail["ingredients"];
  return formulaDetailOf(row, ingredients);
}

/** @example requireFormula(db, 1, "nope") // throws NotFoundError("Formula not found: nope") */
export function requireFormula(db: Database, workspaceId: number, id: string): FormulaDetail {
  const found = findFormula(db, workspaceId, id);
  if (!found) throw new NotFoundError(`Formula not found: ${id}`);
  return found;
}

/** Every formula in full, newest first (the export). @example listFormulaDetails(db, 1).length */
export function listFormulaDetails(db: Database, workspaceId: number): FormulaDetail[] {
  return listFormulas(db, workspaceId).map((s) => requireFormula(db, workspaceId, s.id));
}

/** @example formulaExists(db, 1, "broiler-starter") // true */
export function formulaExists(db: Database, workspaceId: number, id: string): boolean {
  return db.query("SELECT 1 FROM formulas WHERE workspace_id = ? AND id = ?").get(workspaceId, id) !== null;
}

/**
 * A 404 for an unknown id without reading the formula: what a route checks on every request before
 * answering from its cache.
 * @example requireFormulaId(db, 1, "nope") // throws NotFoundError("Formula not found: nope")
 */
export function requireFormulaId(db: Database, workspaceId: number, id: string): void {
  if (!formulaExists(db, workspaceId, id)) throw new NotFoundError(`Formula not found: ${id}`);
}

/**
 * Store a formula with its composition lines, replacing any formula with the same id (callers decide
 * whether that is allowed). Call inside a transaction so the formula and its lines land together.
 * @example saveFormula(db, 1, detail)
 */
export function saveFormula(db: Database, workspaceId: number, f: FormulaDetail): void {
  deleteFormulaRow(db, workspaceId, f.id);
  db.query(
    `INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(workspaceId, f.id, f.name, f.species, f.subcategory, f.batchSize, f.totalCost, f.createdAt, JSON.stringify(f.nutrients), JSON.stringify(f.constraints));
  const line = db.query(
    `INSERT INTO formula_lines (workspace_id, formula_id, position, ingredient, percent, amount, price, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  f.ingredients.forEach((row, position) => line.run(workspaceId, f.id, position, row.name, row.percent, row.amount, row.price, row.cost));
}

/** Lines go with their formula (ON DELETE CASCADE). */
function deleteFormulaRow(db: Database, workspaceId: number, id: string): boolean {
  return db.query("DELETE FROM formulas WHERE workspace_id = ? AND id = ?").run(workspaceId, id).changes > 0;
}

/** @example deleteFormula(db, 1, "broiler-starter") // throws NotFoundError for an unknown id */
export function deleteFormula(db: Database, workspaceId: number, id: string): void {
  const plans = plansUsing(db, workspaceId, { formula: id });
  if (plans.length > 0) throw new ConflictError(usedByPlans(`Formula ${id}`, plans));
  if (!deleteFormulaRow(db, workspaceId, id)) throw new NotFoundError(`Formula not found: ${id}`);
}

/** Ids of the formulas whose composition uses an ingredient, in id order. @example formulasUsing(db, 1, "Maize") // ["broiler-starter", ...] */
export function formulasUsing(db: Database, workspaceId: number, ingredient: string): string[] {
  return (
    db.query("SELECT DISTINCT formula_id AS id FROM formula_lines WHERE workspace_id = ? AND ingredient = ? ORDER BY formula_id").all(workspaceId, ingredient) as {
      id: string;
    }[]
  ).map((r) => r.id);
}
