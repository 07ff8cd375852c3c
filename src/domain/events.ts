/**
 * The webhook events: their names, which a webhook receives without asking, and their payloads, whose
 * shapes are the schemas the OpenAPI document shows (src/schemas/responses.ts, src/schemas/history.ts).
 */
import type { z } from "zod";
import type { analysisAddedPayload } from "../schemas/analyses.ts";
import type { formulaCostChangedPayload } from "../schemas/history.ts";
import type { formulaUpdatedPayload } from "../schemas/formula-put.ts";
import type { planUpdatedPayload } from "../schemas/plans.ts";
import type { ingredientAddedPayload, priceUpdatedPayload } from "../schemas/responses.ts";

/** Every event type, in the order `webhook add --help` lists them. */
export const EVENT_TYPES = ["price.updated", "ingredient.added", "formula.cost_changed", "formula.updated", "plan.updated", "analysis.added"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events a webhook receives only when it names them: one added without `--events` keeps the v1 pair. */
export const OPT_IN_EVENTS: readonly EventType[] = ["formula.cost_changed", "formula.updated", "plan.updated", "analysis.added"];

export type PriceUpdatedPayload = z.output<typeof priceUpdatedPayload>;
export type IngredientAddedPayload = z.output<typeof ingredientAddedPayload>;
/** Opt-in: the formulas whose cost at current prices a price change moved (ordered by id). */
export type FormulaCostChangedPayload = z.output<typeof formulaCostChangedPayload>;
/** Opt-in: a formula written by PUT /v1/formulas/:id or `import formulas`. */
export type FormulaUpdatedPayload = z.output<typeof formulaUpdatedPayload>;
/** Opt-in: a plan written by PUT /v1/plans/:id or `plan import`. */
export type PlanUpdatedPayload = z.output<typeof planUpdatedPayload>;
/** Opt-in: a lab analysis recorded by POST /v1/ingredients/:name/analyses or `import analyses`. */
export type AnalysisAddedPayload = z.output<typeof analysisAddedPayload>;

/** An event about to be written, with the payload its type carries. */
export type NewEvent = { workspaceId: number; ingredient: string; keyId: string | null; now: string } & (
  | { type: "price.updated"; payload: PriceUpdatedPayload }
  | { type: "ingredient.added"; payload: IngredientAddedPayload }
  | { type: "formula.cost_changed"; payload: FormulaCostChangedPayload }
  | { type: "formula.updated"; payload: FormulaUpdatedPayload }
  | { type: "plan.updated"; payload: PlanUpdatedPayload }
  | { type: "analysis.added"; payload: AnalysisAddedPayload }
);
