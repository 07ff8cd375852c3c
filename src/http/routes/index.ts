import type { Route } from "../router.ts";
import { healthRoutes } from "./health.ts";
import { ingredientRoutes } from "./ingredients.ts";

/** Every route the v1 API serves; the OpenAPI document is checked against this list. */
export const routes: Route[] = [...healthRoutes, ...ingredientRoutes];
