-- Nutrient definitions per workspace: what a key means, the unit of its values and whether they
-- are of the feed as fed or of its dry matter. Every workspace there is gets the standard keys (new
-- workspaces get them from createWorkspace); keys ingredients use without a definition stay undefined.
CREATE TABLE nutrients (
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  basis TEXT NOT NULL CHECK (basis IN ('as-fed', 'dry-matter')),
  PRIMARY KEY (workspace_id, key)
);

INSERT INTO nutrients (workspace_id, key, name, unit, basis)
SELECT w.id, d.column1, d.column2, d.column3, d.column4 FROM workspaces w, (VALUES
  ('DM', 'Dry matter', '%', 'as-fed'),
  ('ME_poultry', 'Metabolisable energy, poultry (AMEn)', 'kcal/kg', 'as-fed'),
  ('ME_swine', 'Metabolisable energy, swine', 'kcal/kg', 'as-fed'),
  ('NE_swine', 'Net energy, swine', 'kcal/kg', 'as-fed'),
  ('CP', 'Crude protein', '%', 'as-fed'),
  ('CF', 'Crude fibre', '%', 'as-fed'),
  ('EE', 'Ether extract (crude fat)', '%', 'as-fed'),
  ('Ca', 'Calcium', '%', 'as-fed'),
  ('avP', 'Available (non-phytate) phosphorus', '%', 'as-fed'),
  ('STTD_P', 'Standardised total tract digestible phosphorus, swine', '%', 'as-fed'),
  ('Na', 'Sodium', '%', 'as-fed'),
  ('Cl', 'Chloride', '%', 'as-fed'),
  ('Lys', 'Lysine (total)', '%', 'as-fed'),
  ('Met', 'Methionine (total)', '%', 'as-fed'),
  ('MetCys', 'Methionine + cystine (total)', '%', 'as-fed'),
  ('Thr', 'Threonine (total)', '%', 'as-fed'),
  ('Trp', 'Tryptophan (total)', '%', 'as-fed'),
  ('dLys', 'Digestible lysine (SID)', '%', 'as-fed'),
  ('dMet', 'Digestible methionine (SID)', '%', 'as-fed'),
  ('dMetCys', 'Digestible methionine + cystine (SID)', '%', 'as-fed'),
  ('dThr', 'Digestible threonine (SID)', '%', 'as-fed'),
  ('dTrp', 'Digestible tryptophan (SID)', '%', 'as-fed'),
  ('NEL', 'Net energy for lactation', 'Mcal/kg', 'dry-matter'),
  ('NDF', 'Neutral detergent fibre', '%', 'dry-matter'),
  ('starch', 'Starch', '%', 'dry-matter'),
  ('RUP', 'Rumen-undegradable protein (% of CP)', '%', 'dry-matter')
) d;
