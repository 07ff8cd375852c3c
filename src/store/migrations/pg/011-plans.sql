-- 11: production plans (docs/decisions.md#production-plans): lines and supply kept as the JSON the API
-- takes ({lines, supply}), read and written whole.
CREATE TABLE plans (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  id TEXT NOT NULL COLLATE "C",
  name TEXT NOT NULL COLLATE "C",
  body TEXT NOT NULL,
  created_at TEXT NOT NULL COLLATE "C",
  updated_at TEXT NOT NULL COLLATE "C",
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX plans_newest_first ON plans (workspace_id, updated_at DESC, id);
