import type { SQL } from "bun";
import { ConflictError, NotFoundError } from "../../domain/errors.ts";
import type { Workspace } from "../workspaces.ts";
import { seedNutrients } from "./nutrients.ts";

/** PostgreSQL's twins of ../workspaces.ts. Slugs are ASCII: COLLATE "C" orders them as SQLite does. */

/** @example await listWorkspaces(sql) // [{ id: 1, slug: "default", ... }] */
export async function listWorkspaces(sql: SQL): Promise<Workspace[]> {
  return (await sql`SELECT id, slug, name, created_at AS "createdAt" FROM workspaces ORDER BY slug COLLATE "C"`) as Workspace[];
}

/** @example (await requireWorkspace(sql, "default")).id // 1 */
export async function requireWorkspace(sql: SQL, slug: string): Promise<Workspace> {
  const [found] = (await sql`SELECT id, slug, name, created_at AS "createdAt" FROM workspaces WHERE slug = ${slug}`) as Workspace[];
  if (!found) throw new NotFoundError(`No workspace named ${slug} (see feedbase workspace list)`);
  return found;
}

/** With the standard nutrient definitions. @example await createWorkspace(tx, "north-mill", "North mill", "2026-11-21T14:03:07.123Z") */
export async function createWorkspace(sql: SQL, slug: string, name: string, now: string): Promise<Workspace> {
  const taken = await sql`SELECT 1 FROM workspaces WHERE slug = ${slug}`;
  if (taken.length > 0) throw new ConflictError(`Workspace already exists: ${slug}`);
  await sql`INSERT INTO workspaces (slug, name, created_at) VALUES (${slug}, ${name}, ${now})`;
  const created = await requireWorkspace(sql, slug);
  await seedNutrients(sql, created.id);
  return created;
}
