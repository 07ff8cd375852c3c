/** What both backends' workspace statements share: the shape and the statements' names. */

export interface Workspace {
  id: number;
  slug: string;
  name: string;
  createdAt: string;
}

/** The statements of src/store/workspaces.ts, each dialect's in src/store/sqlite/workspaces.ts and src/store/pg/workspaces.ts. */
export interface WorkspaceStatements {
  /** Every workspace by slug. */
  workspaces(): Workspace[];
  workspaceBySlug(slug: string): Workspace | null;
  insertWorkspace(slug: string, name: string, createdAt: string): void;
}
