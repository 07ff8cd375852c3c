/**
 * Ingredient import and export files (docs/decisions.md#formulas-and-files): CSV with the header
 * `name,category,price,inStock,<nutrient key>...` (a column `co2e` among the keys is the footprint,
 * docs/decisions.md#carbon-footprint), or JSON as one array of detail-shaped objects.
 * Reading validates every row with the API's own schema and stops at the first bad row, named by
 * line (CSV, header = line 1) or item (JSON); nothing here touches the database.
 */
import { ingredientFileItem } from "../schemas/ingredient-file.ts";
import { createIngredientBody, hasProtoKey, nutrients, PROTO_KEY_PROBLEM, type CreateIngredient } from "../schemas/ingredients.ts";
import { firstProblem, locatedProblem } from "../schemas/problem.ts";
import { csvLine, parseCsv } from "./csv.ts";
import { ValidationError } from "./errors.ts";
import { readableJson } from "./json-text.ts";
import type { IngredientDetail } from "../schemas/responses.ts";

export type FileFormat = "csv" | "json";

/** A validated row, ready to write. `where` names it in messages ("line 7", "item 3"). */
export interface IngredientRow {
  input: CreateIngredient;
  createdAt: string | null;
  updatedAt: string | null;
  where: string;
  /** What the row names, for `--update` of a name the workspace holds: the rest is kept (see {@link Given}). */
  given: Given;
}

/**
 * The fields a row sets on an ingredient that exists. `nutrients` is "all" when the row replaces the
 * whole set (a JSON item with `nutrients`, any row of a plain import), else the nutrient columns the
 * file has: each is set from its cell, or removed where the cell is empty; other nutrients are kept.
 */
export interface Given {
  category: boolean;
  price: boolean;
  inStock: boolean;
  nutrients: readonly string[] | "all";
}

export const ALL_GIVEN: Given = { category: true, price: true, inStock: true, nutrients: "all" };

/** Files over this many rows report progress, once per this many rows checked. */
const PROGRESS_EVERY = 10_000;

export interface ReadOptions {
  /** True when the workspace already holds the name. */
  exists(name: string): boolean;
  /** `--update`: a name the workspace holds is changed where the file names a field, not refused. */
  update: boolean;
  onProgress?(checked: number, total: number): void;
}

/** The footprint's column (and JSON field): not a nutrient key. */
const CO2E = "co2e";

/** A row that does not name the footprint: new, it is unknown; updated, the stored one stays. */
const withoutCo2e = (input: CreateIngredient): CreateIngredient => {
  const { co2e: _, ...rest } = input;
  return rest;
};

/** The columns before the nutrients, in the order docs/decisions.md#formulas-and-files fixes. */
const FIXED = ["name", "category", "price", "inStock"] as const;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** The spellings of a stock flag a spreadsheet may hold. */
export const BOOLEAN = new Map([["true", true], ["false", false], ["yes", true], ["no", false], ["1", true], ["0", false]]);

/**
 * Read and validate a whole ingredient file; throws a ValidationError naming the first bad row.
 * @example readIngredientFile("name,category,price,inStock,CP\nMaize,Cereals,228,yes,8.5\n", "csv", { exists: () => false, update: false })
 * // [{ input: { name: "Maize", category: "Cereals", price: 228, inStock: true, nutrients: { CP: 8.5 } }, createdAt: null, updatedAt: null, where: "line 2", given: ALL_GIVEN }]
 */
export function readIngredientFile(text: string, format: FileFormat, options: ReadOptions): IngredientRow[] {
  const rows = format === "csv" ? readCsvRows(text, options) : readJsonRows(text, options);
  if (rows.length === 0) throw new ValidationError("the file holds no ingredients");
  return rows;
}

function readCsvRows(text: string, options: ReadOptions): IngredientRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  const { fixed, keys, keyAt } = headerLayout(header.cells, options.update);
  const missing = FIXED.filter((name) => fixed[name] === undefined);
  // The keys as the schema stores them (NFC), to match the row's nutrients.
  const givenKeys = keys.map((key) => key.normalize("NFC"));
  const co2eAt = header.cells.indexOf(CO2E, options.update ? 1 : FIXED.length);
  const width = header.cells.length;
  const checker = rowChecker(records.length, options);
  return records.map(({ line, cells }) => {
    if (cells.length !== width) throw new ValidationError(`line ${line}: ${cells.length} fields, the header has ${width}`);
    const cell = (i: number) => cells[i]!.trim();
    // An absent column, or an empty cell of a present one, leaves the field to the default (a new row) or as stored (--update).
    const filled = (name: Fixed) => fixed[name] !== undefined && cell(fixed[name]) !== "";
    const candidate: Record<string, unknown> = {};
    if (cells[0] !== "") candidate.name = cells[0];
    if (filled("category")) candidate.category = cells[fixed.category!];
    if (filled("price")) candidate.price = numberOrText(cell(fixed.price!));
    if (filled("inStock")) {
      const stock = BOOLEAN.get(cell(fixed.inStock!).toLowerCase());
      if (stock === undefined) throw new ValidationError(`line ${line}, column ${fixed.inStock! + 1} (inStock): inStock must be true, false, yes, no, 1 or 0`);
      candidate.inStock = stock;
    }
    // fromEntries, not assignment: a column may be called "__proto__" and must stay a nutrient key.
    candidate.nutrients = Object.fromEntries(keys.flatMap((key, k) => (cell(keyAt[k]!) === "" ? [] : [[key, numberOrText(cell(keyAt[k]!))]])));
    // An empty co2e cell is unknown (null); no co2e column leaves a stored footprint as it is (--update).
    if (co2eAt !== -1) candidate.co2e = cell(co2eAt) === "" ? null : numberOrText(cell(co2eAt));

    const result = createIngredientBody.safeParse(candidate);
    if (!result.success) {
      const { where, field, message } = locatedProblem(result.error.issues, candidate);
      const column = where.length === 0 ? (field === CO2E ? co2eAt : (fixed[field as Fixed] ?? -1)) : where[0] === "nutrients" ? (keyAt[keys.indexOf(field as string)] ?? -1) : -1;
      const at = column >= 0 ? `, column ${column + 1} (${header.cells[column]})` : "";
      throw new ValidationError(`line ${line}${at}: ${message}`);
    }
    const { name } = result.data;
    if (options.update && missing.length > 0 && !options.exists(name)) {
      throw new ValidationError(`line ${line}: ${name} is a new ingredient, which needs the columns ${FIXED.join(",")} (the file has no ${missing.join(", ")} column)`);
    }
    const given: Given = options.update ? { category: filled("category"), price: filled("price"), inStock: filled("inStock"), nutrients: givenKeys } : ALL_GIVEN;
    return checker({ input: co2eAt === -1 ? withoutCo2e(result.data) : result.data, createdAt: null, updatedAt: null, where: `line ${line}`, given });
  });
}

type Fixed = (typeof FIXED)[number];

/**
 * Where a header's columns are. Without `--update` it begins with the fixed columns in their order;
 * with it only `name` must come first and the other fixed columns may be anywhere or absent. The
 * rest are nutrient keys, checked with the API's key rule; a repeated column is refused.
 */
function headerLayout(header: readonly string[], update: boolean): { fixed: Partial<Record<Fixed, number>>; keys: string[]; keyAt: number[] } {
  if (update ? header[0] !== "name" : FIXED.some((name, i) => header[i] !== name)) {
    const expected = update ? ["name"] : FIXED;
    throw new ValidationError(`line 1: the header must begin with ${expected.join(",")} (found ${csvLine(header.slice(0, expected.length))})`);
  }
  const fixed: Partial<Record<Fixed, number>> = {};
  const keys: string[] = [];
  const keyAt: number[] = [];
  const seen = new Set<string>();
  header.forEach((column, i) => {
    const at = `line 1, column ${i + 1}`;
    if (seen.has(column)) throw new ValidationError(`${at} (${column}): repeated column`);
    seen.add(column);
    if (column === CO2E && i >= (update ? 1 : FIXED.length)) return;
    if ((update || i < FIXED.length) && (FIXED as readonly string[]).includes(column)) {
      fixed[column as Fixed] = i;
      return;
    }
    if (column === "__proto__") throw new ValidationError(`${at} (${column}): ${PROTO_KEY_PROBLEM}`);
    const check = nutrients.safeParse(Object.fromEntries([[column, 0]]));
    if (!check.success) throw new ValidationError(`${at}: ${check.error.issues[0]!.message}`);
    keys.push(column);
    keyAt.push(i);
  });
  return { fixed, keys, keyAt };
}

/** A strict decimal becomes a number; anything else stays text so the schema says "must be a number". */
export const numberOrText = (cell: string): number | string => (NUMBER.test(cell) ? Number(cell) : cell);

function readJsonRows(text: string, options: ReadOptions): IngredientRow[] {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`the file is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(items)) throw new ValidationError("an ingredients JSON file is one array of ingredient objects");
  const checker = rowChecker(items.length, options);
  return items.map((item: unknown, i) => {
    const result = ingredientFileItem.safeParse(item);
    const name = (item as { name?: unknown } | null)?.name;
    const where = `item ${i + 1}`;
    const label = `${where}${typeof name === "string" ? ` (${name})` : ""}`;
    if (!result.success) throw new ValidationError(`${label}: ${firstProblem(result.error.issues, item)}`);
    if (hasProtoKey((item as { nutrients?: unknown }).nutrients)) throw new ValidationError(`${label}: ${PROTO_KEY_PROBLEM}`);
    const { createdAt, updatedAt, ...parsed } = result.data;
    const input = Object.hasOwn(item as object, CO2E) ? parsed : withoutCo2e(parsed);
    // --update of a name the workspace holds: the fields the item leaves out stay as stored; `nutrients` given replaces them all.
    const has = (field: string) => Object.hasOwn(item as object, field);
    const given: Given = options.update ? { category: has("category"), price: has("price"), inStock: has("inStock"), nutrients: has("nutrients") ? "all" : [] } : ALL_GIVEN;
    return checker({ input, createdAt: createdAt ?? null, updatedAt: updatedAt ?? null, where, given });
  });
}

/** The checks that span rows: a name twice in the file, a name the workspace holds, and progress. */
function rowChecker(total: number, options: ReadOptions): (row: IngredientRow) => IngredientRow {
  const seen = new Map<string, string>();
  let checked = 0;
  return (row) => {
    const { name } = row.input;
    const first = seen.get(name);
    if (first !== undefined) throw new ValidationError(`${row.where}: ${name} is already on ${first}`);
    if (!options.update && options.exists(name)) throw new ValidationError(`${row.where}: Ingredient already exists: ${name} (use --update to replace it)`);
    seen.set(name, row.where);
    checked++;
    if (options.onProgress && total > PROGRESS_EVERY && (checked % PROGRESS_EVERY === 0 || checked === total)) options.onProgress(checked, total);
    return row;
  };
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The CSV export: the fixed columns, `co2e` (empty when unknown), then every nutrient key of the file
 * sorted by bytes; an empty cell where an ingredient lacks the nutrient.
 * @example ingredientsToCsv([maize]) // "name,category,price,inStock,co2e,CP\nMaize,Cereals,228,true,0.4,8.5\n"
 */
export function ingredientsToCsv(ingredients: readonly IngredientDetail[]): string {
  const keys = [...new Set(ingredients.flatMap((i) => Object.keys(i.nutrients)))].sort(byBytes);
  const lines = [csvLine([...FIXED, CO2E, ...keys])];
  for (const i of ingredients) {
    const values = keys.map((k) => (Object.hasOwn(i.nutrients, k) ? String(i.nutrients[k]) : ""));
    lines.push(csvLine([i.name, i.category, String(i.price), String(i.inStock), i.co2e === null ? "" : String(i.co2e), ...values]));
  }
  return lines.join("\n") + "\n";
}

/**
 * The JSON export: one array of details, timestamps included, nutrients in their stored order.
 * @example ingredientsToJson([maize]) // '[\n  {\n    "name": "Maize",\n ...\n    "nutrients": {"CP": 8.5},\n ...'
 */
export function ingredientsToJson(ingredients: readonly IngredientDetail[]): string {
  return readableJson(ingredients);
}
