/**
 * Every reason an import file is refused, each checked against a real data file: the message names
 * the first bad row (line and column for CSV, item for JSON, the formula for formulas) and nothing
 * at all is written. In-process for speed (through the admin commands' store, on either backend);
 * test/import-export.test.ts covers the same path through the CLI.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import type { FileFormat } from "../src/domain/ingredient-file.ts";
import { tempDir } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

const NOW = "2026-11-21T12:00:00.000Z";
const tmp = tempDir();
let store: AdminStore;

beforeAll(async () => {
  store = await openTestStore(tmp.dataPath, { create: true });
  await store.importIngredients(1, "name,category,price,inStock,CP\nWheat,Cereals,262,true,12.5\nSoybean meal 48%,Protein meals,462.5,true,48.5\n", "csv", { update: false, now: NOW });
  await store.importFormulas(1, readFormulaFile(JSON.stringify([{ id: "existing", name: "E", species: "Poultry", subcategory: "Layer", batchSize: 1000, ingredients: [{ name: "Wheat", percent: 100 }] }])), { replace: false, now: NOW });
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

const snapshot = async () => JSON.stringify([await store.listIngredientDetails(1), await store.listFormulaDetails(1)]);

/** The import must fail with exactly `message` and leave the data as it was. */
async function rejects(run: () => Promise<unknown>, message: string): Promise<void> {
  const before = await snapshot();
  let thrown: Error | undefined;
  try {
    await run();
  } catch (error) {
    thrown = error as Error;
  }
  expect(thrown?.message).toBe(message);
  expect(await snapshot()).toBe(before);
}

const ingredients = (text: string, format: FileFormat = "csv") => async () => store.importIngredients(1, text, format, { update: false, now: NOW });
const HEADER = "name,category,price,inStock,CP";
/** A CSV whose line 2 is good (and would be written if imports were not all-or-nothing) and line 3 is `row`. */
const csv = (row: string) => `${HEADER}\nMaize,Cereals,228,true,8.5\n${row}\n`;

describe("ingredient CSV: the first bad row, by line and column; nothing imported", () => {
  const cases: [string, string, string][] = [
    ["a header not starting with the fixed columns", "name,category,cost,inStock\nMaize,Cereals,228,true\n", "line 1: the header must begin with name,category,price,inStock (found name,category,cost,inStock)"],
    ["a repeated nutrient column", "name,category,price,inStock,CP,CP\nMaize,Cereals,228,true,8.5,8.5\n", "line 1, column 6 (CP): repeated column"],
    ["a __proto__ column (which would vanish in parsing)", `${HEADER},__proto__\nMaize,Cereals,228,true,8.5,1\n`, "line 1, column 6 (__proto__): __proto__ cannot be a nutrient key"],
    ["a nutrient key over 64 characters", `${HEADER},${"K".repeat(65)}\nMaize,Cereals,228,true,8.5,1\n`, "line 1, column 6: nutrient keys must be 1 to 64 characters without control characters"],
    ["a row with too few fields", csv("Barley,Cereals,214,true"), "line 3: 4 fields, the header has 5"],
    ["a row with too many fields", csv("Barley,Cereals,214,true,11,3"), "line 3: 6 fields, the header has 5"],
    ["a price that is not a number", csv("Barley,Cereals,cheap,true,11"), "line 3, column 3 (price): price must be a number"],
    ["a price in a locale's form", csv('Barley,Cereals,"214,50",true,11'), "line 3, column 3 (price): price must be a number"],
    ["a negative price", csv("Barley,Cereals,-1,true,11"), "line 3, column 3 (price): price must be a number >= 0"],
    ["a price over 1e9", csv("Barley,Cereals,1000000001,true,11"), "line 3, column 3 (price): price must be a number <= 1000000000"],
    ["an inStock that is no boolean", csv("Barley,Cereals,214,maybe,11"), "line 3, column 4 (inStock): inStock must be true, false, yes, no, 1 or 0"],
    ["a nutrient value that is not a number", csv("Barley,Cereals,214,true,n/a"), "line 3, column 5 (CP): CP must be a number"],
    ["a nutrient value over 1e9", csv("Barley,Cereals,214,true,2e9"), "line 3, column 5 (CP): CP must be a number <= 1000000000"],
    ["an empty name", csv(",Cereals,214,true,11"), "line 3, column 1 (name): name is required"],
    ["a blank name", csv("   ,Cereals,214,true,11"), "line 3, column 1 (name): name must be 1 to 200 characters"],
    ["a name over 200 characters", csv(`${"B".repeat(201)},Cereals,214,true,11`), "line 3, column 1 (name): name must be 1 to 200 characters"],
    ["a control character in a name", csv("Bar\u0007ley,Cereals,214,true,11"), "line 3, column 1 (name): name must not contain control characters"],
    ["a category over 100 characters", csv(`Barley,${"C".repeat(101)},214,true,11`), "line 3, column 2 (category): category must be 1 to 100 characters"],
    ["a name twice in the file", csv("Maize,Cereals,230,true,8.4"), "line 3: Maize is already on line 2"],
    ["a name the workspace holds (no --update)", csv("Wheat,Cereals,270,true,12"), "line 3: Ingredient already exists: Wheat (use --update to replace it)"],
    ["a quoted field left open", csv('"Barley,Cereals,214,true,11'), "line 3: a quoted field is not closed"],
    ["a quote inside an unquoted field", csv('Barley 6"row,Cereals,214,true,11'), "line 3: a quote inside an unquoted field (quote the whole field and double the quote)"],
    ["text after a closing quote", csv('"Barley"x,Cereals,214,true,11'), "line 3: a closing quote must end its field"],
    ["a header and no rows", `${HEADER}\n`, "the file holds no ingredients"],
    ["an empty file", "", "the file holds no ingredients"],
  ];
  for (const [reason, text, message] of cases) test(reason, () => rejects(ingredients(text), message));

  test("the first bad row is reported, whatever kind of problem comes later", async () => {
    await rejects(ingredients(`${HEADER}\nWheat,Cereals,1,true,1\nBarley,Cereals,x,true,1\n`), "line 2: Ingredient already exists: Wheat (use --update to replace it)");
  });

  test("lines count the header as line 1, CRLF and blank lines included", async () => {
    const text = `\uFEFF${HEADER}\r\nMaize,Cereals,228,true,8.5\r\n\r\nBarley,Cereals,x,true,11\r\n`;
    await rejects(ingredients(text), "line 4, column 3 (price): price must be a number");
  });

  test("a record spanning lines (a quoted line break) is named by the line it starts on", async () => {
    await rejects(ingredients(csv('"Sunflower meal\n(decorticated)",Protein meals,300,true,36')), "line 3, column 1 (name): name must not contain control characters");
  });
});

describe("ingredient JSON: the first bad item; nothing imported", () => {
  const item = { name: "Barley", category: "Cereals", price: 214, inStock: true, nutrients: { CP: 11 } };
  const json = (bad: unknown) => JSON.stringify([{ ...item, name: "Maize" }, bad]);
  const cases: [string, string, string][] = [
    ["text that is not JSON", "[{", "the file is not valid JSON (JSON Parse error: Expected '}')"],
    ["JSON that is not an array", JSON.stringify(item), "an ingredients JSON file is one array of ingredient objects"],
    ["an unknown field", json({ ...item, cost: 1 }), "item 2 (Barley): Unknown field: cost"],
    ["a missing name", json({ price: 1 }), "item 2: name is required"],
    ["a price as text", json({ ...item, price: "214" }), "item 2 (Barley): price must be a number"],
    ["an inStock as text", json({ ...item, inStock: "yes" }), "item 2 (Barley): inStock must be true or false"],
    ["a nutrient as text", json({ ...item, nutrients: { CP: "11" } }), "item 2 (Barley): nutrients.CP must be a number"],
    ["a createdAt without a time zone", json({ ...item, createdAt: "2026-01-08T07:45:00" }), "item 2 (Barley): createdAt must be an ISO 8601 date-time with a time zone or a date, such as 2026-01-08T07:45:00.000Z or 2026-01-08"],
    ["an updatedAt that is no date", json({ ...item, updatedAt: "2026-02-30T00:00:00Z" }), "item 2 (Barley): updatedAt must be an ISO 8601 date-time with a time zone or a date, such as 2026-01-08T07:45:00.000Z or 2026-01-08"],
    ["a __proto__ nutrient", `[${JSON.stringify(item).replace('"CP"', '"__proto__":1,"CP"')}]`, "item 1 (Barley): __proto__ cannot be a nutrient key"],
    ["a name twice in the file", json({ ...item, name: "Maize" }), "item 2: Maize is already on item 1"],
    ["a name the workspace holds", json({ ...item, name: "Wheat" }), "item 2: Ingredient already exists: Wheat (use --update to replace it)"],
    ["an empty array", "[]", "the file holds no ingredients"],
  ];
  for (const [reason, text, message] of cases) test(reason, () => rejects(ingredients(text, "json"), message));
});

describe("formula JSON: the formula and the problem; nothing imported", () => {
  const good = { id: "good", name: "Good", species: "Poultry", subcategory: "Broiler starter", batchSize: 1000, ingredients: [{ name: "Wheat", percent: 60 }, { name: "Soybean meal 48%", percent: 40 }] };
  const bad = { ...good, id: "bad", name: "Bad" };
  const formulas = (text: string, replace = false) => async () => store.importFormulas(1, readFormulaFile(text), { replace, now: NOW });
  /** The good formula first: it must not be written when the second is refused. */
  const file = (second: Record<string, unknown>) => JSON.stringify([good, second]);
  const label = 'Formula 2 "Bad" (bad)';
  const cases: [string, string, string][] = [
    ["an unknown ingredient", file({ ...bad, ingredients: [{ name: "Wheat", percent: 60 }, { name: "Soybean meal 44%", percent: 40 }] }), `${label}: Ingredient not found: Soybean meal 44%`],
    ["percents summing under 100 - 0.01", file({ ...bad, ingredients: [{ name: "Wheat", percent: 60 }, { name: "Soybean meal 48%", percent: 39.98 }] }), `${label}: percents sum to 99.98, not 100 (± 0.01)`],
    ["percents summing over 100 + 0.01", file({ ...bad, ingredients: [{ name: "Wheat", percent: 60.02 }, { name: "Soybean meal 48%", percent: 40 }] }), `${label}: percents sum to 100.02, not 100 (± 0.01)`],
    ["a percent of 0", file({ ...bad, ingredients: [{ name: "Wheat", percent: 0 }, { name: "Soybean meal 48%", percent: 100 }] }), `${label}: ingredients[0]: percent must be a number > 0`],
    ["a percent over 100", file({ ...bad, ingredients: [{ name: "Wheat", percent: 100.5 }] }), `${label}: ingredients[0]: percent must be a number <= 100`],
    ["a percent as text", file({ ...bad, ingredients: [{ name: "Wheat", percent: "100" }] }), `${label}: ingredients[0]: percent must be a number`],
    ["a negative row price", file({ ...bad, ingredients: [{ name: "Wheat", percent: 100, price: -3 }] }), `${label}: ingredients[0]: price must be a number >= 0`],
    ["no ingredients", file({ ...bad, ingredients: [] }), `${label}: ingredients must list at least one ingredient`],
    ["a batch size under 1 kg", file({ ...bad, batchSize: 0.5 }), `${label}: batchSize must be a number >= 1`],
    ["a batch size over 1e7 kg", file({ ...bad, batchSize: 10_000_001 }), `${label}: batchSize must be a number <= 10000000`],
    ["an id already in the workspace (no --replace)", file({ ...bad, id: "existing" }), 'Formula 2 "Bad" (existing): Formula already exists: existing (use --replace to overwrite it)'],
    ["an id twice in the file", file({ ...bad, id: "good" }), 'Formula 2 "Bad" (good): id good is also used by formula 1'],
    ["an id with a space", file({ ...bad, id: "bad id" }), 'Formula 2 "Bad" (bad id): id must be 1 to 64 of A-Z a-z 0-9 _ . -'],
    ["an id over 64 characters", file({ ...bad, id: "x".repeat(65) }), `Formula 2 "Bad" (${"x".repeat(65)}): id must be 1 to 64 of A-Z a-z 0-9 _ . -`],
    ["a missing name", file({ ...bad, name: undefined }), "Formula 2 (bad): name is required"],
    ["a species over 100 characters", file({ ...bad, species: "S".repeat(101) }), `${label}: species must be 1 to 100 characters`],
    ["an empty subcategory", file({ ...bad, subcategory: " " }), `${label}: subcategory must be 1 to 100 characters`],
    ["a createdAt that is no date", file({ ...bad, createdAt: "yesterday" }), `${label}: createdAt must be an ISO 8601 date-time with a time zone or a date, such as 2026-01-08T07:45:00.000Z or 2026-01-08`],
    ["an unknown field", file({ ...bad, colour: "red" }), `${label}: Unknown field: colour`],
    ["an unknown field in a row", file({ ...bad, ingredients: [{ name: "Wheat", percent: 100, kg: 1000 }] }), `${label}: ingredients[0]: Unknown field: kg`],
    ["a nutrient bound with max < min", file({ ...bad, constraints: { nutrients: [{ key: "CP", min: 22, max: 21 }] } }), `${label}: constraints.nutrients[0]: max must be >= min`],
    ["an inclusion limit over 100 %", file({ ...bad, constraints: { ingredients: [{ name: "Wheat", min: null, max: 120 }] } }), `${label}: constraints.ingredients[0]: max must be a number <= 100`],
    ["a ratio bound with max < min", file({ ...bad, constraints: { ratios: [{ numerator: "Ca", denominator: "avP", min: 2.2, max: 2 }] } }), `${label}: constraints.ratios[0]: max must be >= min`],
    ["a ratio bound with neither min nor max", file({ ...bad, constraints: { ratios: [{ numerator: "Ca", denominator: "avP", min: null, max: null }] } }), `${label}: constraints.ratios[0]: min and max must not both be null`],
    ["a ratio without a denominator", file({ ...bad, constraints: { ratios: [{ numerator: "Ca", min: 2 }] } }), `${label}: constraints.ratios[0]: denominator is required`],
    ["a ratio bound as text", file({ ...bad, constraints: { ratios: [{ numerator: "Ca", denominator: "avP", min: "2" }] } }), `${label}: constraints.ratios[0]: min must be a number`],
    ["an unknown field in a ratio", file({ ...bad, constraints: { ratios: [{ numerator: "Ca", denominator: "avP", min: 2, ratio: 2 }] } }), `${label}: constraints.ratios[0]: Unknown field: ratio`],
    ["a __proto__ formula nutrient", file({ ...bad, nutrients: { CP: 1 } }).replace('"CP"', '"__proto__":1,"CP"'), `${label}: __proto__ cannot be a nutrient key`],
    ["formula nutrients as text", file({ ...bad, nutrients: { CP: "22" } }), `${label}: nutrients: CP must be a number`],
    ["a formula that is not an object", JSON.stringify([good, "bad"]), "Formula 2: must be a JSON object"],
    ["JSON that is not an array", JSON.stringify(good), "a formulas file is one JSON array of formula objects"],
    ["an empty array", "[]", "the file holds no formulas"],
    ["text that is not JSON", "[", "the file is not valid JSON (JSON Parse error: Unexpected EOF)"],
  ];
  for (const [reason, text, message] of cases) test(reason, () => rejects(formulas(text), message));

  test("sums within 100 ± 0.01 are accepted", async () => {
    const edge = (id: string, wheat: number) => ({ ...good, id, ingredients: [{ name: "Wheat", percent: wheat }, { name: "Soybean meal 48%", percent: 40 }] });
    const saved = await store.importFormulas(1, readFormulaFile(JSON.stringify([edge("low", 59.99), edge("high", 60.01)])), { replace: false, now: NOW });
    expect(saved.map((f) => f.id)).toEqual(["low", "high"]);
  });
});
