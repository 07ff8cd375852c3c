/**
 * The admin store on PostgreSQL: every operation of ./ops.ts, typed against the same names
 * (`PgAdminOps`). Reads run on the pool; each write is one transaction ending with the notification
 * running servers listen for (`writeTransaction`); whole operations (imports, the demo) open their own.
 */
import type { SQL } from "bun";
import { seedDemo } from "../demo/seed.ts";
import { operations } from "../store/bind.ts";
import { deleteIngredient } from "../store/ingredient-delete.ts";
import * as analyses from "../store/analyses.ts";
import * as costs from "../store/costs.ts";
import * as deliveryAdmin from "../store/delivery-admin.ts";
import * as formulas from "../store/formulas.ts";
import * as ingredients from "../store/ingredients.ts";
import * as keys from "../store/keys.ts";
import * as nutrients from "../store/nutrients.ts";
import * as plans from "../store/plans.ts";
import * as priceHistory from "../store/price-history.ts";
import { writeTransaction } from "../store/pg/transaction.ts";
import * as webhooks from "../store/webhooks.ts";
import * as workspaces from "../store/workspaces.ts";
import * as imports from "./imports.ts";
import { ADMIN_WRITES, type AdminStore, type PgAdminOps } from "./ops.ts";

const OPS: PgAdminOps = {
  listWorkspaces: workspaces.listWorkspaces,
  requireWorkspace: workspaces.requireWorkspace,
  createWorkspace: workspaces.createWorkspace,
  listKeys: keys.listKeys,
  identifyKey: keys.identifyKey,
  createKey: keys.createKey,
  setKeyWrite: keys.setKeyWrite,
  setKeyActive: keys.setKeyActive,
  setKeyRateLimit: keys.setKeyRateLimit,
  listWebhooks: webhooks.listWebhooks,
  requireWebhookTarget: webhooks.requireWebhookTarget,
  pendingCount: webhooks.pendingCount,
  createWebhook: webhooks.createWebhook,
  setWebhookEnabled: webhooks.setWebhookEnabled,
  setWebhookSecret: webhooks.setWebhookSecret,
  removeWebhook: webhooks.removeWebhook,
  listDeliveries: deliveryAdmin.listDeliveries,
  listAttempts: deliveryAdmin.listAttempts,
  retryDeliveries: deliveryAdmin.retryDeliveries,
  retryPending: deliveryAdmin.retryPending,
  retryFailed: deliveryAdmin.retryFailed,
  listIngredientDetails: ingredients.listIngredientDetails,
  findIngredient: ingredients.findIngredient,
  listFormulaDetails: formulas.listFormulaDetails,
  requireFormula: formulas.requireFormula,
  formulaCost: costs.formulaCost,
  costChanges: costs.costChanges,
  priceHistory: priceHistory.priceHistory,
  deleteFormula: formulas.deleteFormula,
  deleteIngredient,
  importIngredients: imports.importIngredients,
  importFormulas: imports.importFormulas,
  importPrices: imports.importPrices,
  importNutrients: imports.importNutrients,
  listNutrients: nutrients.listNutrients,
  putNutrient: nutrients.putNutrient,
  listPlans: plans.listPlans,
  requirePlan: plans.requirePlan,
  importPlans: plans.importPlans,
  deletePlan: plans.deletePlan,
  listAnalyses: analyses.listAnalyses,
  variability: analyses.variability,
  deleteAnalysis: analyses.deleteAnalysis,
  importAnalyses: imports.importAnalyses,
  seedDemo,
};

/**
 * The admin store over a pool on `sql`.
 * @example const store = pgAdmin(await openPostgres(url, { max: 2 })); await store.listKeys()
 */
export function pgAdmin(sql: SQL): AdminStore {
  const store = operations<SQL>(OPS, (fn, name) =>
    ADMIN_WRITES.has(name) ? (...args) => writeTransaction(sql, (tx) => fn(tx, ...args) as Promise<unknown>) : (...args) => fn(sql, ...args),
  );
  return { ...store, close: () => sql.close() } as unknown as AdminStore;
}
