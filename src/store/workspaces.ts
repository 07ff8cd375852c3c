/** Workspaces: each operation written once over the statements of src/store/sqlite/workspaces.ts and src/store/pg/workspaces.ts. */
import { ConflictError, NotFoundError } from "../domain/errors.ts";
import { seedNutrients } from "./nutrients.ts";
import { operation, statements } from "./op.ts";
import { pgWorkspaces } from "./pg/workspaces.ts";
import { sqliteWorkspaces } from "./sqlite/workspaces.ts";
import type { WorkspaceStatements } from "./workspace-rows.ts";

export type { Workspace } from "./workspace-rows.ts";

export const WORKSPACE_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

const q = statements<WorkspaceStatements>(sqliteWorkspaces, pgWorkspaces);

/** @example listWorkspaces(db) // [{ id: 1, slug: "default", ... }] */
export const listWorkspaces = operation(function* () {
  return yield* q.workspaces();
});

function* findWorkspace(slug: string) {
  const found = yield* q.workspaceBySlug(slug);
  if (!found) throw new NotFoundError(`No workspace named ${slug} (see feedbase workspace list)`);
  return found;
}

/** @example requireWorkspace(db, "default").id // 1 */
export const requireWorkspace = operation(findWorkspace);

/** With the standard nutrient definitions. @example createWorkspace(db, "north-mill", "North mill", "2026-11-21T14:03:07.123Z") */
export const createWorkspace = operation(function* (slug: string, name: string, now: string) {
  if (yield* q.workspaceBySlug(slug)) throw new ConflictError(`Workspace already exists: ${slug}`);
  yield* q.insertWorkspace(slug, name, now);
  const created = yield* findWorkspace(slug);
  yield* seedNutrients.steps(created.id);
  return created;
});
