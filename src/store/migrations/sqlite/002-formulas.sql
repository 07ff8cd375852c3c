-- 2: formulas (summary, composition lines, achieved nutrients and constraints as given).
CREATE TABLE formulas (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  species TEXT NOT NULL,
  subcategory TEXT NOT NULL,
  batch_size REAL NOT NULL,
  total_cost REAL NOT NULL,
  created_at TEXT NOT NULL,
  nutrients TEXT NOT NULL,
  constraints TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX formulas_newest_first ON formulas (workspace_id, created_at DESC, id);
CREATE TABLE formula_lines (
  workspace_id INTEGER NOT NULL,
  formula_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  ingredient TEXT NOT NULL,
  percent REAL NOT NULL,
  amount REAL NOT NULL,
  price REAL NOT NULL,
  cost REAL NOT NULL,
  PRIMARY KEY (workspace_id, formula_id, position),
  FOREIGN KEY (workspace_id, formula_id) REFERENCES formulas (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX formula_lines_by_ingredient ON formula_lines (workspace_id, ingredient);
