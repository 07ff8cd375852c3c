import { z } from "zod";
import { ingredientQuery } from "./ingredients.ts";
import { instant } from "./time.ts";

/** GET /v1/prices/:name: `from` inclusive, `to` exclusive. */
export const historyQuery = z.object({ from: instant("from", "up").optional(), to: instant("to", "up").optional() });

/** GET /v1/prices: the list's filters, and `at` for the list as it stood then. */
export const pricesQuery = ingredientQuery.extend({ at: instant("at").optional() });

/** GET /v1/formulas/:id/cost: `at` absent means now. */
export const costQuery = z.object({ at: instant("at").optional() });

/** GET /v1/reports/cost-changes: `since` absent means since each formula was saved. */
export const costChangesQuery = z.object({ since: instant("since").optional() });
