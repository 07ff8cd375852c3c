-- 15: events_by_ingredient goes. It served the price history while that was read from the events; the
-- history has its own tables since step 5, and nothing reads events by ingredient any more (they are
-- read by workspace and number, or by id). Every event insert kept it up to date for nothing: one
-- B-tree more written by each price change.
DROP INDEX events_by_ingredient;
