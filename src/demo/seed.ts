/**
 * The demo workspace of `feedbase demo` (docs/decisions.md#demo-data): the project's own demo files, embedded in the
 * executable, imported through the same validation and arithmetic as any admin's file, with more
 * than a year of weekly prices behind today's (history.ts). Each formula is saved at the prices of its
 * `createdAt` by that history, so its saved cost is what it cost then.
 */
import { ConflictError } from "../domain/errors.ts";
import { parseFormulaFile, type FileFormula } from "../domain/formula-file.ts";
import { createKey } from "../store/keys.ts";
import { readNutrientFile } from "../domain/nutrient-file.ts";
import { checkIngredientImport, writeFormulaImport, writeIngredientImport } from "../store/imports.ts";
import { listIngredientDetails, listIngredients, listPrices } from "../store/ingredients.ts";
import { writeAnalysisImport } from "../store/analyses.ts";
import { demoAnalyses } from "./analyses.ts";
import { writeNutrientImport } from "../store/nutrients.ts";
import { pricesInEffect, recordPrice } from "../store/price-history.ts";
import { all, operation, ownTransaction } from "../store/op.ts";
import { requireWorkspace } from "../store/workspaces.ts";
import { demoQuotes, MIN_DEMO_WEEKS, WEEK_MS } from "./history.ts";
import ingredientsCsv from "./ingredients.csv" with { type: "text" };
import nutrientsCsv from "./nutrients.csv" with { type: "text" };
import formulas from "./formulas.json";

export const DEMO_WORKSPACE = "default";
/** The demo's ingredients, as a CSV an admin could import. */
const DEMO_INGREDIENTS_CSV: string = ingredientsCsv;
/**
 * The definition of every key the demo's ingredients use, on the basis their values are given (as fed;
 * RUP in % of the feed), replacing a new workspace's standard ones where they differ.
 */
const demoNutrients = () => readNutrientFile(nutrientsCsv, "csv");

export interface DemoWorkspace {
  ingredients: number;
  formulas: number;
  readKey: { id: string; key: string };
  writeKey: { id: string; key: string };
}

/**
 * Fill the default workspace with the demo and issue a read key and a write key, all in one
 * transaction, on either backend. Refused when the workspace already holds ingredients: the demo never
 * mixes with real data.
 * @example const demo = seedDemo(db, isoTime(Date.now())); demo.readKey.key // "fbk_..."
 */
export const seedDemo = operation(function* (now: string) {
  const ws = yield* requireWorkspace.steps(DEMO_WORKSPACE);
  return yield* ownTransaction(fill(ws, now));
});

function* fill(ws: { id: number; slug: string }, now: string) {
  refuseHeld(ws.slug, (yield* listIngredients.steps(ws.id)).length);
  const options = demoOptions(now);
  yield* writeNutrientImport.steps(ws.id, demoNutrients());
  const rows = yield* checkIngredientImport.steps(ws.id, DEMO_INGREDIENTS_CSV, "csv", options);
  const { added } = yield* writeIngredientImport.steps(ws.id, rows, options);
  // An ingredient's quotes go together (on PostgreSQL, one round trip).
  for (const ingredient of yield* listPrices.steps(ws.id)) {
    yield* all(...demoQuotes(ingredient, Date.parse(now), demoWeeks(now)).map((quote) => recordPrice.steps(ws.id, ingredient.name, { ...quote, source: "demo" })));
  }
  const books = new Map((yield* listIngredientDetails.steps(ws.id)).map((i) => [i.name, i.nutrients]));
  yield* writeAnalysisImport.steps({ workspaceId: ws.id, keyId: null, now }, demoAnalyses(books, now), false);
  const formulas = demoFormulas();
  const prices = yield* all(...formulas.map((f) => pricesInEffect.steps(ws.id, f.formula.createdAt ?? now)));
  const saved = yield* writeFormulaImport.steps(ws.id, formulas.map((f, i) => pricedOnItsDay(f, prices[i]!)), options);
  const readKey = yield* createKey.steps(demoKey(ws.id, false, now));
  const writeKey = yield* createKey.steps(demoKey(ws.id, true, now));
  const demo: DemoWorkspace = { ingredients: added, formulas: saved.length, readKey, writeKey };
  return demo;
}

/** Refuse a workspace that holds ingredients: the demo never mixes with real data. @example refuseHeld("default", 0) */
function refuseHeld(slug: string, held: number): void {
  if (held > 0) throw new ConflictError(`Workspace ${slug} already holds ${held} ingredient${held === 1 ? "" : "s"}: the demo only fills an empty workspace (pass --data with a new file)`);
}

/** How the demo's files are imported. @example writeIngredientImport(db, ws.id, rows, demoOptions(now)) */
const demoOptions = (now: string) => ({ update: false, replace: false, now, source: "demo" as const });

/**
 * Weeks of demo history before `now`: at least 400 days, and always back past the oldest formula's
 * `createdAt`, so every formula's cost on its day is answered from the history.
 * @example demoWeeks("2026-11-23T00:00:00.000Z") // 58
 */
function demoWeeks(now: string): number {
  const oldest = Math.min(...demoFormulas().map((f) => Date.parse(f.formula.createdAt ?? now)));
  return Math.max(MIN_DEMO_WEEKS, Math.ceil((Date.parse(now) - oldest) / WEEK_MS) + 1);
}

/** The demo's formulas, checked. @example demoFormulas().length // 11 */
const demoFormulas = (): FileFormula[] => parseFormulaFile(formulas);

/** A formula with each row priced as the history has it on the formula's `createdAt` (`prices`: in effect then). */
function pricedOnItsDay(f: FileFormula, prices: Map<string, number>): FileFormula {
  return { ...f, formula: { ...f.formula, ingredients: f.formula.ingredients.map((row) => ({ ...row, price: prices.get(row.name) ?? row.price })) } };
}

/** Requests per hour of a demo key: someone exploring (and the console) must not hit the default 100 within the hour. */
export const DEMO_RATE_LIMIT = 10_000;

/** The demo's read or write key. @example createKey(db, demoKey(1, true, now)) */
const demoKey = (workspaceId: number, write: boolean, now: string) => ({ workspaceId, write, rateLimit: DEMO_RATE_LIMIT, label: write ? "demo write" : "demo read", now });
