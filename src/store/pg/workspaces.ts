/** PostgreSQL's statements for src/store/workspaces.ts. Slugs are ASCII: COLLATE "C" orders them as SQLite does. */
import type { PgStatements } from "../op.ts";
import type { Workspace, WorkspaceStatements } from "../workspace-rows.ts";

export const pgWorkspaces: PgStatements<WorkspaceStatements> = {
  workspaces: async (sql) => (await sql`SELECT id, slug, name, created_at AS "createdAt" FROM workspaces ORDER BY slug COLLATE "C"`) as Workspace[],
  workspaceBySlug: async (sql, slug) => {
    const [found] = (await sql`SELECT id, slug, name, created_at AS "createdAt" FROM workspaces WHERE slug = ${slug}`) as Workspace[];
    return found ?? null;
  },
  insertWorkspace: async (sql, slug, name, createdAt) => {
    await sql`INSERT INTO workspaces (slug, name, created_at) VALUES (${slug}, ${name}, ${createdAt})`;
  },
};
