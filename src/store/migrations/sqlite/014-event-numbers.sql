-- 14: an event's number within its workspace, the id clients see (GET /v1/events, X-Webhook-Event-Id):
-- 1, 2, 3… per workspace, so one workspace's ids do not show the others' volume (docs/decisions.md#webhooks).
-- `id` stays the global key deliveries reference. Existing events are numbered in their id order.
-- The default only fills the column for the UPDATE below: every insert gives the number.
ALTER TABLE events ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE events SET number = numbered.n
FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id ORDER BY id) AS n FROM events) AS numbered
WHERE events.id = numbered.id;
CREATE UNIQUE INDEX events_number ON events (workspace_id, number);
