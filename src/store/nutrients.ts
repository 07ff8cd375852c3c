/**
 * Nutrient definitions per workspace (table `nutrients`): the reads GET /v1/nutrients needs, the one
 * write PUT /v1/nutrients/:key and `feedbase nutrient set` make, and the seed of a new workspace.
 */
import type { Database } from "bun:sqlite";
import { DEFAULT_NUTRIENTS, nutrientListing, type NutrientDefinition, type NutrientListing } from "../domain/nutrients.ts";
import { nutrientNotFound, type NutrientInput } from "./nutrient-rules.ts";
import { requireTransaction } from "./transaction.ts";

const DEFINED = "SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ?";
// Keys the workspace's ingredients use: one pass over their JSON objects.
const USED = "SELECT DISTINCT j.key FROM ingredients i, json_each(i.nutrients) j WHERE i.workspace_id = ?";

/** @example listNutrients(db, 1) // [{ key: "Ca", name: "Calcium", unit: "%", basis: "as-fed" }, …, { key: "Zn", name: null, unit: null, basis: null }] */
export function listNutrients(db: Database, workspaceId: number): NutrientListing[] {
  const defined = db.query(DEFINED).all(workspaceId) as NutrientDefinition[];
  const used = (db.query(USED).values(workspaceId) as [string][]).map(([key]) => key);
  return nutrientListing(defined, used);
}

/** One key as the list shows it; throws NotFoundError when neither defined nor used. @example requireNutrient(db, 1, "CP").unit // "%" */
export function requireNutrient(db: Database, workspaceId: number, key: string): NutrientListing {
  const defined = db.query(`${DEFINED} AND key = ?`).get(workspaceId, key) as NutrientDefinition | null;
  if (defined) return defined;
  const used = db.query("SELECT 1 FROM ingredients i, json_each(i.nutrients) j WHERE i.workspace_id = ? AND j.key = ? LIMIT 1").get(workspaceId, key);
  if (used) return { key, name: null, unit: null, basis: null };
  throw nutrientNotFound(key);
}

/**
 * Define a key, or replace its definition; inside the caller's transaction.
 * @example putNutrient(db, 1, "CP", { name: "Crude protein", unit: "%", basis: "as-fed" }) // { created: false, definition }
 */
export function putNutrient(db: Database, workspaceId: number, key: string, input: NutrientInput): { created: boolean; definition: NutrientDefinition } {
  requireTransaction(db, "putNutrient");
  const existed = db.query("SELECT 1 FROM nutrients WHERE workspace_id = ? AND key = ?").get(workspaceId, key) !== null;
  db.query("INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace_id, key) DO UPDATE SET name = excluded.name, unit = excluded.unit, basis = excluded.basis").run(
    workspaceId,
    key,
    input.name,
    input.unit,
    input.basis,
  );
  return { created: !existed, definition: { key, ...input } };
}

/** The standard definitions for a new workspace (src/domain/nutrients.ts); inside its transaction. @example seedNutrients(db, 2) */
export function seedNutrients(db: Database, workspaceId: number): void {
  const insert = db.query("INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  for (const d of DEFAULT_NUTRIENTS) insert.run(workspaceId, d.key, d.name, d.unit, d.basis);
}

/**
 * Put every row of a checked nutrient file, inside the caller's transaction (all or nothing).
 * @example transaction(db, () => writeNutrientImport(db, 1, rows)) // { added: 2, replaced: 23 }
 */
export function writeNutrientImport(db: Database, workspaceId: number, rows: readonly NutrientDefinition[]): { added: number; replaced: number } {
  let added = 0;
  for (const { key, ...input } of rows) if (putNutrient(db, workspaceId, key, input).created) added++;
  return { added, replaced: rows.length - added };
}
