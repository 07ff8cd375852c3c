/**
 * The lab's file of `feedbase import analyses`: CSV with the columns `name` and optionally `sampledAt`
 * (empty: the import's time), `lot`, `lab`, and one column per nutrient key (an empty cell: the lab
 * did not report it). Every cell is checked as POST /v1/ingredients/:name/analyses checks its body, and
 * the first bad one is named by line and column; unknown ingredient names are the store's to find.
 */
import { analysisBody } from "../schemas/analyses.ts";
import { ingredientName } from "../schemas/ingredients.ts";
import { firstProblem } from "../schemas/problem.ts";
import { analysisInput, type AnalysisInput } from "./analyses.ts";
import { csvLine, parseCsv } from "./csv.ts";
import { ValidationError } from "./errors.ts";
import { numberOrText } from "./ingredient-file.ts";

/** One checked row, and where it was (for the store's refusal of an unknown name). */
export interface AnalysisFileRow {
  name: string;
  input: AnalysisInput;
  where: string;
}

const FIXED = ["name", "sampledAt", "lot", "lab"] as const;
type Fixed = (typeof FIXED)[number];

const rowSchema = analysisBody.extend({ name: ingredientName });

/**
 * Read and check an analysis file; throws a ValidationError naming the first bad line and column.
 * @example readAnalysisFile("name,sampledAt,lot,lab,CP\nMaize,2026-11-02,L-7,NIR,7.9\n", now) // [{ name: "Maize", input: { nutrients: { CP: 7.9 }, sampledAt: "2026-11-02T00:00:00.000Z", lot: "L-7", lab: "NIR" }, where: "line 2" }]
 */
export function readAnalysisFile(text: string, now: string): AnalysisFileRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) throw new ValidationError("the file holds no analyses");
  const fixed = fixedColumns(header.cells);
  const keys = header.cells.map((column, i) => ({ column, i })).filter(({ column }) => !(FIXED as readonly string[]).includes(column));
  const rows = records.map(({ line, cells }): AnalysisFileRow => {
    if (cells.length !== header.cells.length) throw new ValidationError(`line ${line}: ${cells.length} fields, the header has ${header.cells.length}`);
    const cell = (column: Fixed) => (fixed[column] === undefined ? "" : cells[fixed[column]]!.trim());
    const candidate: Record<string, unknown> = { name: cells[fixed.name!], nutrients: {} };
    for (const column of ["sampledAt", "lot", "lab"] as const) if (cell(column) !== "") candidate[column] = cell(column);
    const nutrients = candidate.nutrients as Record<string, unknown>;
    for (const { column, i } of keys) if (cells[i]!.trim() !== "") nutrients[column] = numberOrText(cells[i]!.trim());
    const result = rowSchema.safeParse(candidate);
    if (!result.success) {
      const path = result.error.issues[0]!.path;
      const column = path[0] === "nutrients" && typeof path[1] === "string" ? header.cells.indexOf(path[1]) : header.cells.indexOf(String(path[0]));
      const where = column >= 0 ? `line ${line}, column ${column + 1} (${header.cells[column]})` : `line ${line}`;
      throw new ValidationError(`${where}: ${firstProblem(result.error.issues, candidate)}`);
    }
    try {
      return { name: result.data.name, input: analysisInput(result.data, now), where: `line ${line}` };
    } catch (error) {
      throw new ValidationError(`line ${line}, column ${fixed.sampledAt! + 1} (sampledAt): ${(error as Error).message}`);
    }
  });
  if (rows.length === 0) throw new ValidationError("the file holds no analyses");
  return rows;
}

/** Where `name`, `sampledAt`, `lot` and `lab` are; `name` is required, each at most once. */
function fixedColumns(header: readonly string[]): Partial<Record<Fixed, number>> {
  const at: Partial<Record<Fixed, number>> = {};
  header.forEach((column, i) => {
    if (header.indexOf(column) !== i) throw new ValidationError(`line 1, column ${i + 1} (${column}): repeated column`);
    if ((FIXED as readonly string[]).includes(column)) at[column as Fixed] = i;
  });
  if (at.name === undefined) throw new ValidationError(`line 1: the header needs the column name (found ${csvLine(header)}); then sampledAt,lot,lab and one column per nutrient key`);
  return at;
}

