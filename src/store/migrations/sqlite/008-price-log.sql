-- 8: the price log (docs/decisions.md#price-history-and-formula-costs): a price change appends its
-- history entry here, to the end of a table without an index, in the change's transaction; every
-- few thousand entries they move into price_history in one go. Readers take both tables.
CREATE TABLE price_log (
  id INTEGER PRIMARY KEY,
  ingredient_id INTEGER NOT NULL,
  price REAL NOT NULL,
  in_stock INTEGER NOT NULL,
  at TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('api', 'import', 'demo'))
);
