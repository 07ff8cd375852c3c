import { z } from "zod";
import { jsonReply } from "../envelope.ts";
import { openApiDocument } from "../openapi.ts";
import { defineRoute, type Route } from "../route.ts";

/**
 * GET /v1/openapi.json, documenting the table it is added to. The document is the same for the life of
 * the process, so it is built on first request (zod's JSON Schema export is not needed at start).
 * @example const routes = withOpenApi([...healthRoutes, ...ingredientRoutes])
 */
export function withOpenApi(table: readonly Route[]): Route[] {
  let document: Blob | null = null;
  const all: Route[] = [
    ...table,
    defineRoute({
      method: "GET",
      path: "/v1/openapi.json",
      summary: "This document",
      params: {},
      response: { status: 200, description: "OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) },
      errors: [],
      handle: () => jsonReply(200, (document ??= new Blob([JSON.stringify(openApiDocument(all))]))),
    }),
  ];
  return all;
}
