-- 14: an event's number within its workspace, the id clients see (GET /v1/events, X-Webhook-Event-Id):
-- 1, 2, 3… per workspace, so one workspace's ids do not show the others' volume (docs/decisions.md#webhooks).
-- `id` stays the global key deliveries reference. An event stored before this step keeps its id as its
-- number: a receiver's saved cursor (GET /v1/events?after=, X-Webhook-Event-Id) still names the same
-- event, so no event is skipped after the upgrade; the workspace's next event is its highest plus one,
-- and a workspace made after this step counts from 1.
-- The default only fills the column for the UPDATE below: every insert gives the number.
ALTER TABLE events ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE events SET number = id;
CREATE UNIQUE INDEX events_number ON events (workspace_id, number);
