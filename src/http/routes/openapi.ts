import { jsonReply } from "../envelope.ts";
import { openApiDocument } from "../openapi.ts";
import type { Route } from "../router.ts";

let document: Blob | null = null;

/** GET /v1/openapi.json: the document is the same for the life of the process, so it is built once. */
export const openApiRoutes: Route[] = [
  { path: "/v1/openapi.json", methods: { GET: () => jsonReply(200, (document ??= new Blob([JSON.stringify(openApiDocument())]))) } },
];
