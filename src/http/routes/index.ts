import type { Route } from "../route.ts";
import { analysisRoutes } from "./analyses.ts";
import { healthRoutes } from "./health.ts";
import { formulaRoutes } from "./formulas.ts";
import { frontierRoutes } from "./frontier.ts";
import { confidenceRoutes } from "./confidence.ts";
import { costRoutes, priceHistoryRoutes } from "./history.ts";
import { eventRoutes } from "./events.ts";
import { ingredientRoutes } from "./ingredients.ts";
import { metricsRoutes } from "./metrics.ts";
import { nutrientRoutes } from "./nutrients.ts";
import { optimizeRoutes } from "./optimize.ts";
import { batchRoutes } from "./batch.ts";
import { sweepRoutes } from "./sweep.ts";
import { planRoutes } from "./plans.ts";
import { withOpenApi } from "./openapi.ts";
import { keyRoutes } from "./key.ts";
import { priceReportRoutes } from "./price-report.ts";

/**
 * The route table: every route the server answers, one file per resource. The router, the OpenAPI
 * document and the contract check of the tests (test/helpers/contract.ts) all read it.
 */
export const routes: readonly Route[] = withOpenApi([...healthRoutes, ...metricsRoutes, ...ingredientRoutes, ...analysisRoutes, ...priceHistoryRoutes, ...formulaRoutes, ...costRoutes, ...nutrientRoutes, ...optimizeRoutes, ...batchRoutes, ...sweepRoutes, ...planRoutes, ...frontierRoutes, ...confidenceRoutes, ...priceReportRoutes, ...eventRoutes, ...keyRoutes]);
