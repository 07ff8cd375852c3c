/**
 * `feedbase demo` on PostgreSQL: the same demo as seed.ts, in one transaction on the database (ending
 * with the notification running servers listen for). Only the store calls differ; what is written and
 * how it is priced comes from seed.ts.
 */
import type { SQL } from "bun";
import { writeFormulaImport, checkIngredientImport, writeIngredientImport } from "../store/imports.ts";
import { listIngredientDetails, listIngredients, listPrices } from "../store/ingredients.ts";
import { writeAnalysisImport } from "../store/analyses.ts";
import { demoAnalyses } from "./analyses.ts";
import { createKey } from "../store/keys.ts";
import { writeNutrientImport } from "../store/nutrients.ts";
import { pricesInEffect, recordPrice } from "../store/price-history.ts";
import { writeTransaction } from "../store/pg/transaction.ts";
import { requireWorkspace } from "../store/workspaces.ts";
import { demoQuotes } from "./history.ts";
import { DEMO_INGREDIENTS_CSV, DEMO_WORKSPACE, demoFormulas, demoKey, demoNutrients, demoOptions, demoWeeks, pricedOnItsDay, refuseHeld, type DemoWorkspace } from "./seed.ts";

/**
 * Fill the default workspace with the demo and issue a read key and a write key, in one transaction.
 * @example const demo = await seedDemo(sql, isoTime(Date.now())); demo.readKey.key // "fbk_..."
 */
export async function seedDemo(sql: SQL, now: string): Promise<DemoWorkspace> {
  const ws = await requireWorkspace(sql, DEMO_WORKSPACE);
  return writeTransaction(sql, async (tx) => {
    refuseHeld(ws.slug, (await listIngredients(tx, ws.id)).length);
    const options = demoOptions(now);
    await writeNutrientImport(tx, ws.id, demoNutrients());
    const { added } = await writeIngredientImport(tx, ws.id, await checkIngredientImport(tx, ws.id, DEMO_INGREDIENTS_CSV, "csv", options), options);
    for (const ingredient of await listPrices(tx, ws.id)) {
      for (const quote of demoQuotes(ingredient, Date.parse(now), demoWeeks(now))) await recordPrice(tx, ws.id, ingredient.name, { ...quote, source: "demo" });
    }
    const books = new Map((await listIngredientDetails(tx, ws.id)).map((i) => [i.name, i.nutrients]));
    await writeAnalysisImport(tx, { workspaceId: ws.id, keyId: null, now }, demoAnalyses(books, now), false);
    const formulas = [];
    for (const f of demoFormulas()) formulas.push(pricedOnItsDay(f, await pricesInEffect(tx, ws.id, f.formula.createdAt ?? now)));
    const saved = await writeFormulaImport(tx, ws.id, formulas, options);
    const readKey = await createKey(tx, demoKey(ws.id, false, now));
    const writeKey = await createKey(tx, demoKey(ws.id, true, now));
    return { ingredients: added, formulas: saved.length, readKey, writeKey };
  });
}
