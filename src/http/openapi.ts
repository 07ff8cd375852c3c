import { z } from "zod";
import { VERSION } from "../version.ts";
import { createIngredientBody, updatePriceBody } from "../schemas/ingredients.ts";
import * as R from "../schemas/responses.ts";
import * as F from "../schemas/formulas.ts";

type Method = "get" | "post" | "put";

interface Operation {
  method: Method;
  /** The router's pattern, `:param` form. */
  path: string;
  summary: string;
  description?: string;
  query?: Record<string, { description: string; schema: z.ZodType }>;
  body?: z.ZodType;
  ok: { status: number; description: string; schema: z.ZodType; headers?: Record<string, string> };
  errors: number[];
}

const ERROR_TEXT: Record<number, string> = {
  400: "Bad request: invalid JSON, a body that is not an object, or a field that breaks a rule (the message names it).",
  401: "Missing API key, invalid or inactive API key, or rate limit exceeded (with Retry-After).",
  403: "Write permission required.",
  404: "Not found (unknown path, ingredient name or formula id; another workspace's data is not found).",
  405: "Method not allowed (see the Allow header).",
  409: "An ingredient with that name already exists.",
  413: "Request body over 1 MiB.",
  500: "Internal server error (details are only in the server log, under the request id).",
  503: "Storage full: the data file's disk has no room, nothing was written; send it again after Retry-After.",
};

const RETRY_AFTER: Record<number, string> = { 401: "On a rate-limit refusal: seconds to wait.", 503: "Seconds to wait before sending the write again." };

/** The probes for supervisors and load balancers: outside /v1, no key, not rate-limited, not logged. */
const PROBE_PATHS = {
  "/healthz": {
    get: {
      summary: "Liveness: the process answers",
      operationId: "getHealthz",
      security: [],
      responses: { "200": { description: "Alive", content: { "text/plain": { schema: { type: "string", const: "ok" } } } } },
    },
  },
  "/readyz": {
    get: {
      summary: "Readiness: the database answers a read, a write can commit, the delivery loop ran in the last 5 s, the disk has room",
      operationId: "getReadyz",
      security: [],
      responses: {
        "200": { description: "Ready", content: { "text/plain": { schema: { type: "string", const: "ready" } } } },
        "503": {
          description: "Not ready; `failed` lists the failed checks: `database read`, `write commit`, `storage full`, `delivery loop`.",
          content: {
            "application/json": {
              schema: {
                allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", required: ["failed"], properties: { failed: { type: "array", items: { type: "string" } } } }],
              },
            },
          },
        },
      },
    },
  },
};

const nameParam = { name: "name", in: "path", required: true, description: "URL-encoded ingredient name, decoded once (`%2F` is a `/` inside the name).", schema: { type: "string" } };

/** The optional, additive filters of the ingredient list and the price list. */
const INGREDIENT_FILTERS: Operation["query"] = {
  category: { description: "Only this category (exact, case-sensitive).", schema: z.string() },
  inStock: { description: "Only in-stock (`true`) or out-of-stock (`false`) ingredients.", schema: z.enum(["true", "false"]) },
};

/** PUT on /v1/ingredients/:name and /v1/prices/:name: the spec makes them one operation. */
const PRICE_UPDATE: Omit<Operation, "path" | "summary"> = {
  method: "put",
  description: "Fires `price.updated` when the price changes; a stock-only change or a repeated price fires nothing. Never creates.",
  body: updatePriceBody,
  ok: { status: 200, description: "Updated", schema: R.ingredientWritten },
  errors: [400, 401, 403, 404, 413, 503],
};

/** Every operation of the v1 surface; test/openapi.test.ts checks this list against the router's. */
export const OPERATIONS: Operation[] = [
  { method: "get", path: "/v1/health", summary: "Service status and version", ok: { status: 200, description: "Healthy", schema: R.health }, errors: [401] },
  {
    method: "get",
    path: "/v1/ingredients",
    summary: "List all ingredients of the workspace",
    description: "Ordered by name (case-insensitive, ties by bytes). `nutrients` is a count in this view. `pools` lists every category of the workspace whatever the filters. No pagination.",
    query: INGREDIENT_FILTERS,
    ok: { status: 200, description: "The ingredient list", schema: R.ingredientList },
    errors: [400, 401],
  },
  {
    method: "post",
    path: "/v1/ingredients",
    summary: "Create an ingredient (write permission)",
    description: "Fires `ingredient.added`. The name is trimmed and must be unique in the workspace.",
    body: createIngredientBody,
    ok: { status: 201, description: "Created", schema: R.ingredientWritten, headers: { Location: "URL of the new ingredient" } },
    errors: [400, 401, 403, 409, 413, 503],
  },
  {
    method: "get",
    path: "/v1/ingredients/:name",
    summary: "One ingredient with all nutrients",
    ok: { status: 200, description: "The ingredient", schema: R.ingredientRead },
    errors: [400, 401, 404],
  },
  { ...PRICE_UPDATE, path: "/v1/ingredients/:name", summary: "Update an ingredient's price and optionally its stock status (write permission)" },
  {
    method: "get",
    path: "/v1/prices",
    summary: "Simplified price and stock list",
    query: INGREDIENT_FILTERS,
    ok: { status: 200, description: "The price list (no timestamp, as the spec has it)", schema: R.priceList },
    errors: [400, 401],
  },
  { ...PRICE_UPDATE, path: "/v1/prices/:name", summary: "Same operation as PUT /v1/ingredients/{name} (write permission)" },
  {
    method: "get",
    path: "/v1/formulas",
    summary: "List saved formulas (summaries)",
    description: "Newest first (`createdAt` descending, then `id` by bytes). Read-only: formulas enter through `feedbase import formulas`. No pagination.",
    query: {
      species: { description: "Only this species (exact, case-sensitive).", schema: z.string() },
      subcategory: { description: "Only this subcategory (exact, case-sensitive).", schema: z.string() },
    },
    ok: { status: 200, description: "The formula list", schema: F.formulaList },
    errors: [401],
  },
  {
    method: "get",
    path: "/v1/formulas/:id",
    summary: "One formula: composition, achieved nutrients and constraints",
    description: "Amounts in kg (3 decimals), prices per ton, costs (2 decimals), `totalCost` from the unrounded costs, achieved nutrients (4 decimals); all frozen at import.",
    ok: { status: 200, description: "The formula", schema: F.formulaRead },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/v1/openapi.json",
    summary: "This document",
    ok: { status: 200, description: "OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) },
    errors: [401],
  },
];

const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": { description: 'The key\'s policy: `"default";q=<requests>;w=3600`.', schema: { type: "string" } },
  RateLimit: { description: 'Remaining requests and seconds until the oldest counted request leaves the window: `"default";r=<n>;t=<s>`.', schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Requests allowed per hour.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix seconds when the window has room again.", schema: { type: "integer" } },
  "X-Request-Id": { description: "The caller's X-Request-Id (up to 64 printable characters) or a generated one.", schema: { type: "string" } },
};
const rateLimitRefs = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

/** Turn a zod schema into JSON Schema with named parts hoisted into components (OpenAPI 3.1 is JSON Schema 2020-12). */
function schemaCollector() {
  const components: Record<string, unknown> = {};
  const toSchema = (schema: z.ZodType, io: "input" | "output"): unknown => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
    const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $schema: _, $defs, ...rest } = JSON.parse(text) as Record<string, unknown> & { $defs?: Record<string, unknown> };
    Object.assign(components, $defs ?? {});
    return rest;
  };
  return { components, toSchema };
}

/**
 * The OpenAPI 3.1 document of the v1 surface, generated from the zod schemas that validate requests.
 * @example const doc = openApiDocument(); doc.paths["/v1/health"].get.summary // "Service status and version"
 */
export function openApiDocument(): Record<string, unknown> {
  const { components, toSchema } = schemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const path = op.path.replace(/:([a-zA-Z]+)/g, "{$1}");
    const parameters: unknown[] = op.path.includes(":name") ? [nameParam] : op.path.includes(":id") ? [{ name: "id", in: "path", required: true, description: "Formula id.", schema: { type: "string" } }] : [];
    for (const [name, q] of Object.entries(op.query ?? {})) parameters.push({ name, in: "query", required: false, description: q.description, schema: toSchema(q.schema, "input") });
    const responses: Record<string, unknown> = {
      [op.ok.status]: {
        description: op.ok.description,
        headers: { ...rateLimitRefs, ...Object.fromEntries(Object.entries(op.ok.headers ?? {}).map(([h, d]) => [h, { description: d, schema: { type: "string" } }])) },
        content: { "application/json": { schema: toSchema(op.ok.schema, "output") } },
      },
    };
    for (const status of [...op.errors, 405, 500]) {
      responses[status] = {
        description: ERROR_TEXT[status],
        headers: RETRY_AFTER[status] ? { "Retry-After": { description: RETRY_AFTER[status], schema: { type: "integer" } } } : status === 405 ? { Allow: { description: "The methods this path serves.", schema: { type: "string" } } } : {},
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    (paths[path] ??= {})[op.method] = {
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: `${op.method}${path.replace(/[{}]/g, "").replace(/\/v1\//, "/").split(/[/.]/).filter(Boolean).map((s) => s[0]!.toUpperCase() + s.slice(1)).join("")}`,
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.body, "input") } } } } : {}),
      responses,
    };
  }
  toSchema(R.errorObject, "output");
  const event = (name: string, schema: z.ZodType) => ({
    post: {
      summary: `${name} webhook`,
      description:
        "Sent to every enabled webhook registered for the event (`feedbase webhook add`). Verify `X-Webhook-Signature` (hex HMAC-SHA256 of the raw body with the secret) or the Standard Webhooks `webhook-signature`; answer 2xx to acknowledge. At-least-once: de-duplicate by `webhook-id`.",
      parameters: [
        { name: "X-Webhook-Event", in: "header", required: true, schema: { type: "string", const: name } },
        { name: "X-Webhook-Signature", in: "header", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}$" } },
        { name: "X-Webhook-Id", in: "header", required: true, schema: { type: "string" } },
        { name: "webhook-id", in: "header", required: true, schema: { type: "string" } },
        { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string" } },
        { name: "webhook-signature", in: "header", required: true, schema: { type: "string" } },
      ],
      requestBody: { required: true, content: { "application/json": { schema: toSchema(schema, "output") } } },
      responses: { "2XX": { description: "Acknowledged" }, "410": { description: "Gone: feedbase disables the webhook" } },
    },
  });
  return {
    openapi: "3.1.0",
    info: {
      title: "feedbase — Feed Formulation Data Service API",
      version: VERSION,
      description: "Version 1 of the feed formulation API, served by a self-hosted feedbase. Every path needs the X-API-Key header; keys are rate-limited per hour (an exceeded limit is a 401, as the v1 spec has it).",
    },
    servers: [{ url: "/", description: "This feedbase server" }],
    security: [{ ApiKey: [] }],
    paths: { ...paths, ...PROBE_PATHS },
    webhooks: { "price.updated": event("price.updated", R.priceUpdatedPayload), "ingredient.added": event("ingredient.added", R.ingredientAddedPayload) },
    components: {
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`fbk_` + 40 characters, issued with `feedbase key create`." } },
      headers: RATE_LIMIT_HEADERS,
      schemas: components,
    },
  };
}
