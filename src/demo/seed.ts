/**
 * The demo workspace of `feedbase demo` (docs/decisions.md#demo-data): the project's own demo files, embedded in the
 * executable, imported through the same validation and arithmetic as any admin's file.
 */
import type { Database } from "bun:sqlite";
import { ConflictError } from "../domain/errors.ts";
import { parseFormulaFile } from "../domain/formula-file.ts";
import { createKey } from "../store/keys.ts";
import { checkIngredientImport, writeFormulaImport, writeIngredientImport } from "../store/imports.ts";
import { transaction } from "../store/transaction.ts";
import { listIngredients } from "../store/ingredients.ts";
import { requireWorkspace } from "../store/workspaces.ts";
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
    const options = { update: false, replace: false, now };
    const { added } = writeIngredientImport(db, ws.id, checkIngredientImport(db, ws.id, ingredientsCsv, "csv", options), options);
    const saved = writeFormulaImport(db, ws.id, parseFormulaFile(formulas), options);
    const key = (write: boolean) => createKey(db, { workspaceId: ws.id, write, rateLimit: 100, label: write ? "demo write" : "demo read", now });
    return { ingredients: added, formulas: saved.length, readKey: key(false), writeKey: key(true) };
  });
}
