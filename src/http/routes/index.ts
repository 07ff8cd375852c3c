import type { Route } from "../router.ts";
import { healthRoutes } from "./health.ts";
import { formulaRoutes } from "./formulas.ts";
import { ingredientRoutes } from "./ingredients.ts";
import { openApiRoutes } from "./openapi.ts";

/** Every route the v1 API serves; test/openapi.test.ts checks the OpenAPI document against this list. */
export const routes: Route[] = [
  ...healthRoutes,
  ...ingredientRoutes,
  ...formulaRoutes,
  ...openApiRoutes,
];
