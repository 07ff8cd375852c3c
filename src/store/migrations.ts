/**
 * Schema migrations, applied in order on open; `PRAGMA user_version` records how many have run.
 * Append only: a shipped migration is never edited.
 */
export const MIGRATIONS: readonly string[] = [
  `
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
  `,
  // 2: formulas (summary, composition lines, achieved nutrients and constraints as given).
  `
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
  `,
  // 3: webhooks and their deliveries (the outbox's fan-out; events are the outbox itself).
  // events NULL = every event type; next_attempt_at in epoch ms; ingredient copied from the event so
  // the per-webhook, per-ingredient ordering check is one index probe.
  `
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    events TEXT,
    enabled INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhooks_by_workspace ON webhooks (workspace_id);
  CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL REFERENCES events(id),
    ingredient TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX deliveries_due ON deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
  CREATE INDEX deliveries_next ON deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX deliveries_order ON deliveries (webhook_id, ingredient, event_id) WHERE status = 'pending';
  CREATE INDEX deliveries_by_status ON deliveries (status, updated_at);
  CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id, status);
  `,
  // 4: GET /readyz proves a write can commit and the file can still grow by committing a page-sized row
  // here and removing it in the same transaction; the table is empty between probes.
  `
  CREATE TABLE readiness_probe (id INTEGER PRIMARY KEY, filler BLOB NOT NULL);
  `,
  // 5: price history (docs/decisions.md#price-history-and-formula-costs): one row per change of an ingredient's price
  // or stock status, kept with the ingredient (its clean-up deletes them). An existing file starts
  // with one entry per ingredient: its current price and stock as of its updatedAt.
  `
  CREATE TABLE price_history (
    id INTEGER PRIMARY KEY,
    ingredient_id INTEGER NOT NULL REFERENCES ingredients(id) ON DELETE CASCADE,
    price REAL NOT NULL,
    in_stock INTEGER NOT NULL,
    at TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('api', 'import', 'demo'))
  );
  CREATE INDEX price_history_by_ingredient ON price_history (ingredient_id, at, id);
  INSERT INTO price_history (ingredient_id, price, in_stock, at, source)
    SELECT id, price, in_stock, updated_at, 'import' FROM ingredients ORDER BY id;
  `,
  // 6: every attempt of a delivery, not only the last (webhook deliveries show). number counts over the
  // delivery's whole life, admin retries included; deliveries.attempts counts within the current schedule.
  `
  CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    at TEXT NOT NULL,
    status INTEGER,
    error TEXT,
    ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, number)
  ) WITHOUT ROWID;
  `,
  // 7: price_history without its foreign key: the check doubled the cost of the insert every price
  // change makes (bench/history.ts). store/ingredients.ts deletes an ingredient's entries with it.
  `
  CREATE TABLE price_history_7 (
    id INTEGER PRIMARY KEY,
    ingredient_id INTEGER NOT NULL,
    price REAL NOT NULL,
    in_stock INTEGER NOT NULL,
    at TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('api', 'import', 'demo'))
  );
  INSERT INTO price_history_7 (id, ingredient_id, price, in_stock, at, source)
    SELECT id, ingredient_id, price, in_stock, at, source FROM price_history ORDER BY id;
  DROP TABLE price_history;
  ALTER TABLE price_history_7 RENAME TO price_history;
  CREATE INDEX price_history_by_ingredient ON price_history (ingredient_id, at, id);
  `,
];
