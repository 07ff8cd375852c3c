/** SQLite's statements for src/store/workspaces.ts. */
import type { SqliteStatements } from "../op.ts";
import type { Workspace, WorkspaceStatements } from "../workspace-rows.ts";

const SELECT = "SELECT id, slug, name, created_at AS createdAt FROM workspaces";

export const sqliteWorkspaces: SqliteStatements<WorkspaceStatements> = {
  workspaces: (db) => db.query(`${SELECT} ORDER BY slug`).all() as Workspace[],
  workspaceBySlug: (db, slug) => db.query(`${SELECT} WHERE slug = ?`).get(slug) as Workspace | null,
  insertWorkspace: (db, slug, name, createdAt) => {
    db.query("INSERT INTO workspaces (slug, name, created_at) VALUES (?, ?, ?)").run(slug, name, createdAt);
  },
};
