-- 10: each ingredient's carbon footprint (docs/decisions.md#carbon-footprint): kg CO2e per kg as fed,
-- NULL when unknown (every ingredient stored before this step).
ALTER TABLE ingredients ADD COLUMN co2e REAL;
