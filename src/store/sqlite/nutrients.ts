/** SQLite's statements for src/store/nutrients.ts. */
import type { NutrientDefinition } from "../../domain/nutrients.ts";
import type { NutrientStatements } from "../nutrient-rules.ts";
import type { SqliteStatements } from "../op.ts";

const DEFINED = "SELECT key, name, unit, basis FROM nutrients WHERE workspace_id = ?";

export const sqliteNutrients: SqliteStatements<NutrientStatements> = {
  definitions: (db, workspaceId) => db.query(DEFINED).all(workspaceId) as NutrientDefinition[],
  // Keys the workspace's ingredients use: one pass over their JSON objects.
  usedKeys: (db, workspaceId) =>
    (db.query("SELECT DISTINCT j.key FROM ingredients i, json_each(i.nutrients) j WHERE i.workspace_id = ?").values(workspaceId) as [string][]).map(([key]) => key),
  definition: (db, workspaceId, key) => db.query(`${DEFINED} AND key = ?`).get(workspaceId, key) as NutrientDefinition | null,
  isUsed: (db, workspaceId, key) =>
    db.query("SELECT 1 FROM ingredients i, json_each(i.nutrients) j WHERE i.workspace_id = ? AND j.key = ? LIMIT 1").get(workspaceId, key) !== null,
  upsertDefinition: (db, workspaceId, key, input) => {
    const existed = db.query("SELECT 1 FROM nutrients WHERE workspace_id = ? AND key = ?").get(workspaceId, key) !== null;
    db.query(
      "INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace_id, key) DO UPDATE SET name = excluded.name, unit = excluded.unit, basis = excluded.basis",
    ).run(workspaceId, key, input.name, input.unit, input.basis);
    return !existed;
  },
  insertDefault: (db, workspaceId, d) => {
    db.query("INSERT INTO nutrients (workspace_id, key, name, unit, basis) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING").run(workspaceId, d.key, d.name, d.unit, d.basis);
  },
};
