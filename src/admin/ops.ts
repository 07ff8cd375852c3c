/**
 * The admin commands' seam: named store operations without a connection, so a command reads and writes
 * the same way whichever backend holds the data (docs/decisions.md#postgresql). One table of operations
 * written once, bound to an SQLite file here (writes each in one `transaction()`, synchronous) or to a
 * PostgreSQL pool by ./pg.ts (each write one `writeTransaction`; loaded only for a `postgres://` URL).
 */
import type { Database } from "bun:sqlite";
import { operations } from "../store/bind.ts";
import type { SQL } from "bun";
import type { seedDemo } from "../demo/seed.ts";
import { deleteAnalysis, listAnalyses, variability } from "../store/analyses.ts";
import { costChanges, formulaCost } from "../store/costs.ts";
import { closeDatabase } from "../store/db.ts";
import { listAttempts, listDeliveries, retryDeliveries, retryFailed, retryPending } from "../store/delivery-admin.ts";
import { deleteFormula, listFormulaDetails, requireFormula } from "../store/formulas.ts";
import { deleteIngredient } from "../store/ingredient-delete.ts";
import { findIngredient, listIngredientDetails } from "../store/ingredients.ts";
import { createKey, identifyKey, listKeys, setKeyActive, setKeyRateLimit, setKeyWrite } from "../store/keys.ts";
import { deletePlan, importPlans, listPlans, requirePlan } from "../store/plans.ts";
import { priceHistory } from "../store/price-history.ts";
import { listNutrients, putNutrient } from "../store/nutrients.ts";
import { transaction } from "../store/transaction.ts";
import { createWebhook, listWebhooks, pendingCount, removeWebhook, requireWebhookTarget, setWebhookEnabled, setWebhookSecret } from "../store/webhooks.ts";
import { createWorkspace, listWorkspaces, requireWorkspace } from "../store/workspaces.ts";
import type { importAnalyses, importFormulas, importIngredients, importNutrients, importPrices } from "./imports.ts";

/** Reads: no transaction. Add a read here: both backends get it. */
const READS = {
  listWorkspaces,
  requireWorkspace,
  listKeys,
  identifyKey,
  listWebhooks,
  requireWebhookTarget,
  pendingCount,
  listDeliveries,
  listAttempts,
  listIngredientDetails,
  findIngredient,
  listFormulaDetails,
  requireFormula,
  formulaCost,
  costChanges,
  priceHistory,
  listNutrients,
  listPlans,
  requirePlan,
  listAnalyses,
  variability,
};

/** Writes: each runs in one transaction of its own. */
const WRITES = {
  createWorkspace,
  createKey,
  setKeyWrite,
  setKeyActive,
  setKeyRateLimit,
  createWebhook,
  setWebhookEnabled,
  setWebhookSecret,
  removeWebhook,
  retryDeliveries,
  retryPending,
  retryFailed,
  deleteFormula,
  deleteIngredient,
  putNutrient,
  importPlans,
  deletePlan,
  deleteAnalysis,
};

/**
 * Whole operations that check outside and write in one transaction they open themselves; loaded when
 * called (the file parsers and the demo's files cost a command that does not import a third of its start).
 */
type Whole = { importIngredients: typeof importIngredients; importFormulas: typeof importFormulas; importPrices: typeof importPrices; importNutrients: typeof importNutrients; importAnalyses: typeof importAnalyses; seedDemo: typeof seedDemo };
const WHOLE: { [K in keyof Whole]: () => Promise<Whole[K]> } = {
  importIngredients: async () => (await import("./imports.ts")).importIngredients,
  importFormulas: async () => (await import("./imports.ts")).importFormulas,
  importPrices: async () => (await import("./imports.ts")).importPrices,
  importNutrients: async () => (await import("./imports.ts")).importNutrients,
  importAnalyses: async () => (await import("./imports.ts")).importAnalyses,
  seedDemo: async () => (await import("../demo/seed.ts")).seedDemo,
};

type Ops = typeof READS & typeof WRITES & Whole;
type Rest<F> = F extends (db: Database, ...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? R : never;
type Awaitable<T> = T | Promise<T>;

/** @example const keys = await store.listKeys(ws.id) */
export type AdminStore = { [K in keyof Ops]: (...args: Rest<Ops[K]>) => Awaitable<Result<Ops[K]>> } & {
  /** Close the file (folding its WAL in) or the connection pool. */
  close(): Promise<void>;
};

/** The one table both backends bind: reads, and writes (each in a transaction of the binding's making); `withWhole` adds the whole operations. */
export const ADMIN_OPERATIONS = { reads: READS, writes: WRITES };

/**
 * The named operations bound to a connection, the whole ones added (loaded when called), and close.
 * @example withWhole(db, bound, async () => closeDatabase(db))
 */
export function withWhole<C extends Database | SQL>(conn: C, bound: Record<string, unknown>, close: () => Promise<void>): AdminStore {
  const store: Record<string, unknown> = { ...bound, close };
  for (const [name, load] of Object.entries(WHOLE) as [string, () => Promise<(conn: C, ...args: unknown[]) => unknown>][]) {
    store[name] = async (...args: unknown[]) => (await load())(conn, ...args);
  }
  return store as unknown as AdminStore;
}

/**
 * The admin store over an open SQLite file.
 * @example const store = sqliteAdmin(openDatabase("feedbase.db", { create: false }))
 */
export function sqliteAdmin(db: Database): AdminStore {
  const bound = {
    ...operations<Database>(READS, (fn) => (...args) => fn(db, ...args)),
    ...operations<Database>(WRITES, (fn) => (...args) => transaction(db, () => fn(db, ...args) as never)),
  };
  return withWhole(db, bound, async () => closeDatabase(db));
}
