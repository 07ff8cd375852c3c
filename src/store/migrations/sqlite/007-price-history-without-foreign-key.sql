-- 7: price_history without its foreign key: the check doubled the cost of the insert every price
-- change makes (bench/history.ts). store/ingredient-changes.ts deletes an ingredient's entries with it.
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
