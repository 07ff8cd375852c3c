/**
 * Formula import and export files (docs/decisions.md#formulas-and-files). Reading checks what the file alone can tell (fields,
 * bounds, the percent sum, ids repeated in the file); `buildFormula` adds what needs the workspace
 * (ingredient prices and nutrients). Every message names the formula, so a 200-formula file is fixable.
 */
import { formulaImport, type FormulaDetail, type FormulaImport } from "../schemas/formulas.ts";
import { locatedProblem } from "../schemas/problem.ts";
import type { IngredientDetail } from "../schemas/responses.ts";
import { csvLine } from "./csv.ts";
import { ValidationError } from "./errors.ts";
import { computeFormula } from "./formula-math.ts";
import { checkPercentSum } from "./formula-writes.ts";
import { hasProtoKey, PROTO_KEY_PROBLEM } from "../schemas/ingredients.ts";
import { readableJson } from "./json-text.ts";

/** A validated formula of a file and how messages name it. */
export interface FileFormula {
  formula: FormulaImport;
  label: string;
}

/**
 * `Formula 3 "Layer phase 1" (layer-phase-1)`: position, then whatever the item says about itself.
 * @example labelOf({ id: "layer-phase-1", name: "Layer phase 1" }, 2) // 'Formula 3 "Layer phase 1" (layer-phase-1)'
 */
function labelOf(item: unknown, index: number): string {
  const { id, name } = (item !== null && typeof item === "object" ? item : {}) as { id?: unknown; name?: unknown };
  return `Formula ${index + 1}${typeof name === "string" ? ` ${JSON.stringify(name)}` : ""}${typeof id === "string" ? ` (${id})` : ""}`;
}

/** `["ingredients", 3]` → `ingredients[3]: ` (indexes as in the file, from 0, as JSON tools show them). */
const pathPrefix = (where: readonly PropertyKey[]) =>
  where.length === 0 ? "" : where.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("") + ": ";

/**
 * Validate the parsed content of a formulas file: an array of import objects.
 * @example parseFormulaFile(JSON.parse(text)) // [{ formula: { id: "broiler-starter", ... }, label: 'Formula 1 "Broiler starter 0-10 d" (broiler-starter)' }]
 */
export function parseFormulaFile(items: unknown): FileFormula[] {
  if (!Array.isArray(items)) throw new ValidationError("a formulas file is one JSON array of formula objects");
  if (items.length === 0) throw new ValidationError("the file holds no formulas");
  const ids = new Map<string, string>();
  return items.map((item: unknown, i) => {
    const label = labelOf(item, i);
    if (item === null || typeof item !== "object" || Array.isArray(item)) throw new ValidationError(`${label}: must be a JSON object`);
    const result = formulaImport.safeParse(item);
    if (!result.success) {
      const { where, message } = locatedProblem(result.error.issues, item);
      throw new ValidationError(`${label}: ${pathPrefix(where)}${message}`);
    }
    if (hasProtoKey((item as { nutrients?: unknown }).nutrients)) throw new ValidationError(`${label}: ${PROTO_KEY_PROBLEM}`);
    const formula = result.data;
    checkPercentSum(formula, label);
    if (formula.id !== undefined) {
      const other = ids.get(formula.id);
      if (other !== undefined) throw new ValidationError(`${label}: id ${formula.id} is also used by ${other}`);
      ids.set(formula.id, `formula ${i + 1}`);
    }
    return { formula, label };
  });
}

/**
 * Read a formulas JSON file.
 * @example readFormulaFile(await Bun.file("formulas.json").text())
 */
export function readFormulaFile(text: string): FileFormula[] {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`the file is not valid JSON (${(error as Error).message})`);
  }
  return parseFormulaFile(items);
}

/**
 * The stored form of an imported formula: amounts, costs, total and achieved nutrients by docs/decisions.md#formulas-and-files,
 * from the row's own price and the formula's own nutrients when given, else from the ingredient database.
 * @example buildFormula(fileFormula, (name) => findIngredient(db, ws, name), { id: newFormulaId(), now })
 */
export function buildFormula(
  { formula, label }: FileFormula,
  ingredient: (name: string) => IngredientDetail | null,
  defaults: { id: string; now: string },
): FormulaDetail {
  const rows = formula.ingredients.map((row) => {
    const found = ingredient(row.name);
    if (!found) throw new ValidationError(`${label}: Ingredient not found: ${row.name}`);
    return { name: row.name, percent: row.percent, price: row.price ?? found.price, nutrients: found.nutrients };
  });
  const computed = computeFormula({ batchSize: formula.batchSize, ingredients: rows });
  return {
    id: formula.id ?? defaults.id,
    name: formula.name,
    species: formula.species,
    subcategory: formula.subcategory,
    batchSize: formula.batchSize,
    totalCost: computed.totalCost,
    createdAt: formula.createdAt ?? defaults.now,
    ingredients: computed.ingredients,
    nutrients: formula.nutrients ?? computed.nutrients,
    constraints: formula.constraints,
  };
}

/**
 * The JSON export, in the import format with each row's price and the achieved nutrients written out,
 * so importing it elsewhere keeps every figure and exports to the same bytes.
 * @example formulasToJson(details) // '[\n  {\n    "id": "broiler-starter", ...'
 */
export function formulasToJson(formulas: readonly FormulaDetail[]): string {
  const items = formulas.map((f) => ({
    id: f.id,
    name: f.name,
    species: f.species,
    subcategory: f.subcategory,
    batchSize: f.batchSize,
    createdAt: f.createdAt,
    ingredients: f.ingredients.map(({ name, percent, price }) => ({ name, percent, price })),
    nutrients: f.nutrients,
    constraints: f.constraints,
  }));
  return readableJson(items);
}

const CSV_COLUMNS = ["id", "name", "species", "subcategory", "batchSize", "totalCost", "createdAt", "ingredient", "percent", "amount", "price", "cost"];

/**
 * The CSV export for spreadsheets: one row per composition line, the formula's fields repeated.
 * Export only: constraints and nutrients do not fit one row per line.
 * @example formulasToCsv(details) // "id,name,...\nbroiler-starter,Broiler starter 0-10 d,...,Maize,60.347,1206.94,228,275.18\n..."
 */
export function formulasToCsv(formulas: readonly FormulaDetail[]): string {
  const lines = [csvLine(CSV_COLUMNS)];
  for (const f of formulas) {
    for (const row of f.ingredients) {
      lines.push(
        csvLine([f.id, f.name, f.species, f.subcategory, f.batchSize, f.totalCost, f.createdAt, row.name, row.percent, row.amount, row.price, row.cost].map(String)),
      );
    }
  }
  return lines.join("\n") + "\n";
}
