/** A formula's footprint from its lines and today's `co2e` values (docs/decisions.md#carbon-footprint). */
import type { Database } from "bun:sqlite";
import { footprintOf, type Footprint } from "../domain/footprint.ts";

/** @example formulaFootprint(db, 1, "broiler-starter") // { co2ePerTon: 612.3, co2eUnknown: [] } */
export function formulaFootprint(db: Database, workspaceId: number, id: string): Footprint {
  const rows = db
    .query(
      `SELECT l.ingredient AS name, l.percent AS percent, i.co2e AS co2e FROM formula_lines l
       LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
       WHERE l.workspace_id = ? AND l.formula_id = ? ORDER BY l.position`,
    )
    .all(workspaceId, id) as { name: string; percent: number; co2e: number | null }[];
  return footprintOf(rows);
}
