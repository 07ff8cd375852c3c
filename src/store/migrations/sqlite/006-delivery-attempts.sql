-- 6: every attempt of a delivery, not only the last (webhook deliveries show). number counts over the
-- delivery's whole life, admin retries included; deliveries.attempts counts within the current schedule.
CREATE TABLE delivery_attempts (
  delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  at TEXT NOT NULL,
  status INTEGER,
  error TEXT,
  ms INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, number)
) WITHOUT ROWID;
