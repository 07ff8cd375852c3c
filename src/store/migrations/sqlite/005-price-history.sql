-- 5: price history (docs/decisions.md#price-history-and-formula-costs): one row per change of an ingredient's price
-- or stock status, kept with the ingredient (its clean-up deletes them). An existing file starts
-- with one entry per ingredient: its current price and stock as of its updatedAt.
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
