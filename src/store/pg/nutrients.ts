/** PostgreSQL's twins of ../nutrients.ts; `ingredients.nutrients` is JSON text, read as jsonb here. */
import type { SQL } from "bun";
import { DEFAULT_NUTRIENTS, nutrientListing, type NutrientDefinition, type NutrientListing } from "../../domain/nutrients.ts";
import { nutrientNotFound, type NutrientInput } from "../nutrient-rules.ts";
import { pipelined } from "./pipelined.ts";

/** @example await listNutrients(sql, 1) */
export async function listNutrients(sql: SQL, workspaceId: number): Promise<NutrientListing[]> {
  const [defined, used] = await pipelined(
    sql`SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ${workspaceId}`.execute() as Promise<NutrientDefinition[]>,
    sql`SELECT DISTINCT jsonb_object_keys(nutrients::jsonb) AS key FROM ingredients WHERE workspace_id = ${workspaceId}`.values() as Promise<[string][]>,
  );
  return nutrientListing(defined, used.map(([key]) => key));
}

/** @example (await requireNutrient(sql, 1, "CP")).unit // "%" */
export async function requireNutrient(sql: SQL, workspaceId: number, key: string): Promise<NutrientListing> {
  const [defined] = (await sql`SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ${workspaceId} AND key = ${key}`) as NutrientDefinition[];
  if (defined) return defined;
  const used = await sql`SELECT 1 FROM ingredients WHERE workspace_id = ${workspaceId} AND nutrients::jsonb ? ${key} LIMIT 1`;
  if (used.length > 0) return { key, name: null, unit: null, basis: null };
  throw nutrientNotFound(key);
}

/** @example await putNutrient(tx, 1, "CP", { name: "Crude protein", unit: "%", basis: "as-fed" }) // { created: false, definition } */
export async function putNutrient(sql: SQL, workspaceId: number, key: string, input: NutrientInput): Promise<{ created: boolean; definition: NutrientDefinition }> {
  // xmax = 0 marks a row this statement inserted rather than updated.
  const [row] = (await sql`INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (${workspaceId}, ${key}, ${input.name}, ${input.unit}, ${input.basis})
    ON CONFLICT (workspace_id, key) DO UPDATE SET name = excluded.name, unit = excluded.unit, basis = excluded.basis
    RETURNING (xmax = 0) AS created`) as { created: boolean }[];
  return { created: row!.created, definition: { key, ...input } };
}

/** @example await seedNutrients(tx, 2) */
export async function seedNutrients(sql: SQL, workspaceId: number): Promise<void> {
  await pipelined(
    ...DEFAULT_NUTRIENTS.map(
      (d) => sql`INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (${workspaceId}, ${d.key}, ${d.name}, ${d.unit}, ${d.basis}) ON CONFLICT DO NOTHING`.execute() as Promise<unknown>,
    ),
  );
}

/** @example await writeNutrientImport(tx, 1, rows) // { added: 2, replaced: 23 } */
export async function writeNutrientImport(sql: SQL, workspaceId: number, rows: readonly NutrientDefinition[]): Promise<{ added: number; replaced: number }> {
  let added = 0;
  for (const { key, ...input } of rows) if ((await putNutrient(sql, workspaceId, key, input)).created) added++;
  return { added, replaced: rows.length - added };
}
