-- 1: workspaces, API keys (hashes only), ingredients, and the events outbox.
CREATE TABLE workspaces (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
INSERT INTO workspaces (slug, name, created_at)
  VALUES ('default', 'Default workspace', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  label TEXT,
  can_write INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  rate_limit INTEGER NOT NULL DEFAULT 100,
  created_at TEXT NOT NULL
);

CREATE TABLE ingredients (
  id INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  price REAL NOT NULL,
  in_stock INTEGER NOT NULL,
  nutrients TEXT NOT NULL,
  nutrient_count INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX ingredients_by_name ON ingredients (workspace_id, name COLLATE NOCASE, name);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  type TEXT NOT NULL,
  ingredient TEXT NOT NULL,
  payload TEXT NOT NULL,
  key_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX events_by_ingredient ON events (workspace_id, ingredient, id);
