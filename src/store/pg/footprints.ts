/** PostgreSQL's twin of ../footprints.ts. */
import type { SQL } from "bun";
import { footprintOf, type Footprint } from "../../domain/footprint.ts";

/** @example await formulaFootprint(sql, 1, "broiler-starter") // { co2ePerTon: 612.3, co2eUnknown: [] } */
export async function formulaFootprint(sql: SQL, workspaceId: number, id: string): Promise<Footprint> {
  const rows = (await sql`SELECT l.ingredient AS name, l.percent AS percent, i.co2e AS co2e FROM formula_lines l
    LEFT JOIN ingredients i ON i.workspace_id = l.workspace_id AND i.name = l.ingredient
    WHERE l.workspace_id = ${workspaceId} AND l.formula_id = ${id} ORDER BY l.position`) as { name: string; percent: number; co2e: number | null }[];
  return footprintOf(rows);
}
