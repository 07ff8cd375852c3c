/** PostgreSQL's twins of the reads of ../formulas.ts (saving and deleting are the admin store's). */
import type { SQL } from "bun";
import { NotFoundError } from "../../domain/errors.ts";
import type { FormulaDetail, FormulaSummary } from "../../schemas/formulas.ts";
import { unmatchable } from "./text.ts";
import { formulaDetailOf, type FormulaRow } from "../formula-rows.ts";
import type { FormulaFilters } from "../formulas.ts";

// Newest first, ties by id in byte order (the columns are COLLATE "C", as SQLite's BINARY).

/** @example await listFormulas(sql, 1, { species: "Poultry" }) */
export async function listFormulas(sql: SQL, workspaceId: number, filters: FormulaFilters = {}): Promise<FormulaSummary[]> {
  const species = filters.species ?? null;
  const subcategory = filters.subcategory ?? null;
  if (unmatchable(species, subcategory)) return [];
  return (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost", created_at AS "createdAt" FROM formulas
    WHERE workspace_id = ${workspaceId} AND (${species}::text IS NULL OR species = ${species}) AND (${subcategory}::text IS NULL OR subcategory = ${subcategory})
    ORDER BY created_at DESC, id`) as FormulaSummary[];
}

/** @example await findFormula(sql, 1, "broiler-starter") // FormulaDetail | null */
export async function findFormula(sql: SQL, workspaceId: number, id: string): Promise<FormulaDetail | null> {
  if (unmatchable(id)) return null;
  const rows = (await sql`SELECT id, name, species, subcategory, batch_size AS "batchSize", total_cost AS "totalCost", created_at AS "createdAt", nutrients, constraints
    FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id}`) as FormulaRow[];
  if (!rows[0]) return null;
  const lines = (await sql`SELECT ingredient AS name, percent, amount, price, cost FROM formula_lines
    WHERE workspace_id = ${workspaceId} AND formula_id = ${id} ORDER BY position`) as FormulaDetail["ingredients"];
  return formulaDetailOf(rows[0], [...lines]);
}

/** @example await requireFormula(sql, 1, "nope") // throws NotFoundError("Formula not found: nope") */
export async function requireFormula(sql: SQL, workspaceId: number, id: string): Promise<FormulaDetail> {
  const found = await findFormula(sql, workspaceId, id);
  if (!found) throw new NotFoundError(`Formula not found: ${id}`);
  return found;
}

/** Every formula in full, newest first (the export). @example (await listFormulaDetails(sql, 1)).length */
export async function listFormulaDetails(sql: SQL, workspaceId: number): Promise<FormulaDetail[]> {
  const summaries = await listFormulas(sql, workspaceId);
  const details: FormulaDetail[] = [];
  for (const s of summaries) details.push(await requireFormula(sql, workspaceId, s.id));
  return details;
}

/** @example await formulaExists(sql, 1, "broiler-starter") // true */
export async function formulaExists(sql: SQL, workspaceId: number, id: string): Promise<boolean> {
  if (unmatchable(id)) return false;
  return (await sql`SELECT 1 FROM formulas WHERE workspace_id = ${workspaceId} AND id = ${id}`).length > 0;
}

/** A 404 for an unknown id without reading the formula. @example await requireFormulaId(sql, 1, "nope") // throws NotFoundError */
export async function requireFormulaId(sql: SQL, workspaceId: number, id: string): Promise<void> {
  if (!(await formulaExists(sql, workspaceId, id))) throw new NotFoundError(`Formula not found: ${id}`);
}
