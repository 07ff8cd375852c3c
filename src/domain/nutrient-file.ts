/**
 * Nutrient definition files (`feedbase import nutrients`, `feedbase export nutrients`): CSV with the
 * header `key,name,unit,basis`, or JSON as one array of `{key, name, unit, basis}`. Reading checks each
 * row with the API's own schema and stops at the first bad one, naming its line or item.
 */
import { nutrientDefinitionBody } from "../schemas/nutrients.ts";
import { nutrients } from "../schemas/ingredients.ts";
import { firstProblem } from "../schemas/problem.ts";
import { csvLine, parseCsv } from "./csv.ts";
import { ValidationError } from "./errors.ts";
import type { FileFormat } from "./ingredient-file.ts";
import { readableJson } from "./json-text.ts";
import type { NutrientDefinition } from "./nutrients.ts";

const HEADER = ["key", "name", "unit", "basis"] as const;

/**
 * A nutrient key as ingredients may use it (1 to 64 characters, no control characters), in its NFC
 * form; throws a ValidationError naming `where`.
 * @example nutrientKey("CP", "line 2") // "CP"
 */
export function nutrientKey(key: string, where: string): string {
  const check = nutrients.safeParse(Object.fromEntries([[key, 0]]));
  if (key === "__proto__" || !check.success) throw new ValidationError(`${where}: ${check.success ? "__proto__ cannot be a nutrient key" : check.error.issues[0]!.message}`);
  return Object.keys(check.data)[0]!;
}

/**
 * Read and check a whole definition file; a key given twice is refused.
 * @example readNutrientFile("key,name,unit,basis\nCP,Crude protein,%,as-fed\n", "csv") // [{ key: "CP", name: "Crude protein", unit: "%", basis: "as-fed" }]
 */
export function readNutrientFile(text: string, format: FileFormat): NutrientDefinition[] {
  const items = format === "csv" ? csvItems(text) : jsonItems(text);
  const seen = new Map<string, string>();
  const rows = items.map(({ where, item }) => {
    const { key, ...rest } = item as { key?: unknown };
    if (typeof key !== "string") throw new ValidationError(`${where}: key is required`);
    const normal = nutrientKey(key, where);
    const result = nutrientDefinitionBody.safeParse(rest);
    if (!result.success) throw new ValidationError(`${where} (${normal}): ${firstProblem(result.error.issues, rest)}`);
    const first = seen.get(normal);
    if (first !== undefined) throw new ValidationError(`${where}: ${normal} is already on ${first}`);
    seen.set(normal, where);
    return { key: normal, ...result.data };
  });
  if (rows.length === 0) throw new ValidationError("the file holds no nutrient definitions");
  return rows;
}

function csvItems(text: string): { where: string; item: Record<string, string> }[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  if (header.cells.length !== HEADER.length || HEADER.some((name, i) => header.cells[i] !== name)) {
    throw new ValidationError(`line 1: the header must be ${HEADER.join(",")} (found ${csvLine(header.cells)})`);
  }
  return records.map(({ line, cells }) => {
    if (cells.length !== HEADER.length) throw new ValidationError(`line ${line}: ${cells.length} fields, the header has ${HEADER.length}`);
    return { where: `line ${line}`, item: Object.fromEntries(HEADER.map((name, i) => [name, cells[i]!])) };
  });
}

function jsonItems(text: string): { where: string; item: unknown }[] {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`the file is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(items)) throw new ValidationError("a nutrients JSON file is one array of {key, name, unit, basis} objects");
  return items.map((item: unknown, i) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) throw new ValidationError(`item ${i + 1}: must be an object {key, name, unit, basis}`);
    return { where: `item ${i + 1}`, item };
  });
}

/** @example nutrientsToCsv(defs) // "key,name,unit,basis\nCP,Crude protein,%,as-fed\n" */
export function nutrientsToCsv(definitions: readonly NutrientDefinition[]): string {
  return [csvLine([...HEADER]), ...definitions.map((d) => csvLine([d.key, d.name, d.unit, d.basis]))].join("\n") + "\n";
}

/** @example nutrientsToJson(defs) // '[\n  {\n    "key": "CP", ...' */
export function nutrientsToJson(definitions: readonly NutrientDefinition[]): string {
  return readableJson(definitions);
}
