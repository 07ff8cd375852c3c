-- 11: production plans (docs/decisions.md#production-plans): lines and supply kept as the JSON the API
-- takes ({lines, supply}), read and written whole.
CREATE TABLE plans (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX plans_newest_first ON plans (workspace_id, updated_at DESC, id);
