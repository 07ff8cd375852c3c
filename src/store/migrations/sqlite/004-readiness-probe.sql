-- 4: GET /readyz proves a write can commit and the file can still grow by committing a page-sized row
-- here and removing it in the same transaction; the table is empty between probes.
CREATE TABLE readiness_probe (id INTEGER PRIMARY KEY, filler BLOB NOT NULL);
