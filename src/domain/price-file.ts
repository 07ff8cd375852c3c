/**
 * The weekly purchasing file of `feedbase import prices`: CSV with the columns `name,price` and
 * optionally `inStock` and `at` (a past instant or a date, for the history entry), in any order.
 * Reading checks every cell and stops at the first bad one, naming its line; the checks against the
 * stored data (unknown names, an `at` before the last entry) are the store's.
 */
import { z } from "zod";
import { ingredientName, price } from "../schemas/ingredients.ts";
import { firstProblem } from "../schemas/problem.ts";
import { isoDateTime } from "../schemas/time.ts";
import { csvLine, parseCsv } from "./csv.ts";
import { ValidationError } from "./errors.ts";
import { BOOLEAN, numberOrText } from "./ingredient-file.ts";

/** One checked row: `inStock` null keeps the stored flag, `at` null means the import's time. */
export interface PriceRow {
  name: string;
  price: number;
  inStock: boolean | null;
  at: string | null;
  where: string;
}

const COLUMNS = ["name", "price", "inStock", "at"] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ["name", "price"];

const rowSchema = z.strictObject({ name: ingredientName, price, at: isoDateTime("at").optional() });

/**
 * Read and check a price file; throws a ValidationError naming the first bad line. An `at` after
 * `now` is refused (the history records what took effect, not what will).
 * @example readPriceFile("name,price\nMaize,231\n", now) // [{ name: "Maize", price: 231, inStock: null, at: null, where: "line 2" }]
 */
export function readPriceFile(text: string, now: string): PriceRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) throw new ValidationError("the file holds no prices");
  const at = columnsOf(header.cells);
  const seen = new Map<string, string>();
  const rows = records.map(({ line, cells }) => {
    if (cells.length !== header.cells.length) throw new ValidationError(`line ${line}: ${cells.length} fields, the header has ${header.cells.length}`);
    const cell = (column: Column) => (at[column] === undefined ? "" : cells[at[column]]!.trim());
    const where = (column: Column) => `line ${line}, column ${at[column]! + 1} (${column})`;
    const candidate: Record<string, unknown> = { name: cells[at.name!] };
    if (cell("price") !== "") candidate.price = numberOrText(cell("price"));
    if (cell("at") !== "") candidate.at = cell("at");
    const result = rowSchema.safeParse(candidate);
    if (!result.success) {
      const field = result.error.issues[0]!.path[0] as Column | undefined;
      const message = candidate.price === undefined && field === "price" ? "price is required" : firstProblem(result.error.issues, candidate);
      throw new ValidationError(`${field ? where(field) : `line ${line}`}: ${message}`);
    }
    let inStock: boolean | null = null;
    if (cell("inStock") !== "") {
      inStock = BOOLEAN.get(cell("inStock").toLowerCase()) ?? null;
      if (inStock === null) throw new ValidationError(`${where("inStock")}: inStock must be true, false, yes, no, 1 or 0`);
    }
    const { name } = result.data;
    const when = result.data.at ?? null;
    if (when !== null && when > now) throw new ValidationError(`${where("at")}: at ${when} is in the future (the history records prices that took effect)`);
    const first = seen.get(name);
    if (first !== undefined) throw new ValidationError(`line ${line}: ${name} is already on ${first}`);
    seen.set(name, `line ${line}`);
    return { name, price: result.data.price, inStock, at: when, where: `line ${line}` };
  });
  if (rows.length === 0) throw new ValidationError("the file holds no prices");
  return rows;
}

/** Where each column is; `name` and `price` are required, any other column refused. */
function columnsOf(header: readonly string[]): Partial<Record<Column, number>> {
  const at: Partial<Record<Column, number>> = {};
  header.forEach((column, i) => {
    if (!(COLUMNS as readonly string[]).includes(column)) {
      throw new ValidationError(`line 1, column ${i + 1} (${column}): unknown column; a price file has the columns name,price and optionally inStock,at`);
    }
    if (at[column as Column] !== undefined) throw new ValidationError(`line 1, column ${i + 1} (${column}): repeated column`);
    at[column as Column] = i;
  });
  const missing = REQUIRED.filter((column) => at[column] === undefined);
  if (missing.length > 0) throw new ValidationError(`line 1: the header needs the columns ${missing.join(",")} (found ${csvLine(header)})`);
  return at;
}
