/**
 * The demo workspace of `feedbase demo` (docs/decisions.md#demo-data): the project's own demo files, embedded in the
 * executable, imported through the same validation and arithmetic as any admin's file, with a few
 * months of weekly prices behind today's (history.ts). Each formula is saved at the prices of its
 * `createdAt` by that history, so its saved cost is what it cost then.
 */
import type { Database } from "bun:sqlite";
import { ConflictError } from "../domain/errors.ts";
import { parseFormulaFile, type FileFormula } from "../domain/formula-file.ts";
import { createKey } from "../store/keys.ts";
import { checkIngredientImport, writeFormulaImport, writeIngredientImport } from "../store/imports.ts";
import { listIngredients, listPrices } from "../store/ingredients.ts";
import { pricesInEffect, recordPrice } from "../store/price-history.ts";
import { transaction } from "../store/transaction.ts";
import { requireWorkspace } from "../store/workspaces.ts";
import { demoQuotes } from "./history.ts";
import ingredientsCsv from "./ingredients.csv" with { type: "text" };
import formulas from "./formulas.json";

export const DEMO_WORKSPACE = "default";

export interface DemoWorkspace {
  ingredients: number;
  formulas: number;
  readKey: { id: string; key: string };
  writeKey: { id: string; key: string };
}

/**
 * Fill the default workspace with the demo and issue a read key and a write key, all in one
 * transaction. Refused when the workspace already holds ingredients: the demo never mixes with real data.
 * @example const demo = seedDemo(db, isoTime(Date.now())); demo.readKey.key // "fbk_..."
 */
export function seedDemo(db: Database, now: string): DemoWorkspace {
  const ws = requireWorkspace(db, DEMO_WORKSPACE);
  return transaction(db, () => {
    const held = listIngredients(db, ws.id).length;
    if (held > 0) {
      throw new ConflictError(`Workspace ${ws.slug} already holds ${held} ingredient${held === 1 ? "" : "s"}: the demo only fills an empty workspace (pass --data with a new file)`);
    }
    const options = { update: false, replace: false, now, source: "demo" as const };
    const { added } = writeIngredientImport(db, ws.id, checkIngredientImport(db, ws.id, ingredientsCsv, "csv", options), options);
    for (const ingredient of listPrices(db, ws.id)) {
      for (const quote of demoQuotes(ingredient, Date.parse(now))) recordPrice(db, ws.id, ingredient.name, { ...quote, source: "demo" });
    }
    const saved = writeFormulaImport(db, ws.id, parseFormulaFile(formulas).map((f) => atPricesOfItsDay(db, ws.id, f, now)), options);
    const key = (write: boolean) => createKey(db, { workspaceId: ws.id, write, rateLimit: 100, label: write ? "demo write" : "demo read", now });
    return { ingredients: added, formulas: saved.length, readKey: key(false), writeKey: key(true) };
  });
}

/** The formula with each row priced as the history has it on the formula's `createdAt`. */
function atPricesOfItsDay(db: Database, workspaceId: number, f: FileFormula, now: string): FileFormula {
  const prices = pricesInEffect(db, workspaceId, f.formula.createdAt ?? now);
  return { ...f, formula: { ...f.formula, ingredients: f.formula.ingredients.map((row) => ({ ...row, price: prices.get(row.name) ?? row.price })) } };
}
