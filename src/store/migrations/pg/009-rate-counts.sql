-- 2: what each instance accepted per key and second, so a key's limit holds across instances
-- (src/limiter/shared-counts.ts). An instance writes only its own rows, and a row's count is its whole
-- count for that second, so reading a row twice changes nothing. xid is the writing transaction's:
-- a reader asks for rows written at or after the oldest transaction still running at its last read,
-- which cannot miss a row committed late with an older id (a sequence could).
CREATE TABLE rate_counts (
  instance TEXT NOT NULL,
  key_id TEXT NOT NULL,
  second BIGINT NOT NULL,
  count INTEGER NOT NULL,
  xid XID8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (instance, key_id, second)
);
CREATE INDEX rate_counts_by_xid ON rate_counts (xid);
CREATE INDEX rate_counts_by_second ON rate_counts (second);
