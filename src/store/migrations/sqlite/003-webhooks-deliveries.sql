-- 3: webhooks and their deliveries (the outbox's fan-out; events are the outbox itself).
-- events NULL = every event type; next_attempt_at in epoch ms; ingredient copied from the event so
-- the per-webhook, per-ingredient ordering check is one index probe.
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
