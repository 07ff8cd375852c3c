import type { Database } from "bun:sqlite";
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import { seedNutrients } from "./nutrients.ts";

export interface Workspace {
  id: number;
  slug: string;
  name: string;
  createdAt: string;
}

export const WORKSPACE_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

const SELECT = "SELECT id, slug, name, created_at AS createdAt FROM workspaces";

/** @example listWorkspaces(db) // [{ id: 1, slug: "default", ... }] */
export function listWorkspaces(db: Database): Workspace[] {
  return db.query(`${SELECT} ORDER BY slug`).all() as Workspace[];
}

/** @example requireWorkspace(db, "default").id // 1 */
export function requireWorkspace(db: Database, slug: string): Workspace {
  const found = db.query(`${SELECT} WHERE slug = ?`).get(slug) as Workspace | null;
  if (!found) throw new NotFoundError(`No workspace named ${slug} (see feedbase workspace list)`);
  return found;
}

/** With the standard nutrient definitions. @example createWorkspace(db, "north-mill", "North mill", "2026-11-21T14:03:07.123Z") */
export function createWorkspace(db: Database, slug: string, name: string, now: string): Workspace {
  const taken = db.query("SELECT 1 FROM workspaces WHERE slug = ?").get(slug);
  if (taken) throw new ConflictError(`Workspace already exists: ${slug}`);
  db.query("INSERT INTO workspaces (slug, name, created_at) VALUES (?, ?, ?)").run(slug, name, now);
  const created = requireWorkspace(db, slug);
  seedNutrients(db, created.id);
  return created;
}
