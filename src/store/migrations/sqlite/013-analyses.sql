-- 13: the mill's lab analyses of its ingredients (docs/decisions.md#lab-analyses). `id` is the row's
-- order of creation (ties of sampled_at list the newest created first); `analysis_id` the public id.
-- Nutrients are JSON text like an ingredient's. An analysis goes with its ingredient when that is deleted.
CREATE TABLE analyses (
  id INTEGER PRIMARY KEY,
  analysis_id TEXT NOT NULL UNIQUE,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  ingredient_id INTEGER NOT NULL REFERENCES ingredients(id) ON DELETE CASCADE,
  nutrients TEXT NOT NULL,
  sampled_at TEXT NOT NULL,
  lot TEXT,
  lab TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX analyses_by_ingredient ON analyses (ingredient_id, sampled_at, id);
