import { z } from "zod";
import { STATUS_TEXT } from "../failures.ts";
import { VERSION } from "../version.ts";
import * as H from "../schemas/history.ts";
import * as R from "../schemas/responses.ts";
import { analysisAddedPayload } from "../schemas/analyses.ts";
import { formulaUpdatedPayload } from "../schemas/formula-put.ts";
import { planUpdatedPayload } from "../schemas/plans.ts";
import { RATE_LIMIT_FIELDS } from "./rate-limit.ts";
import { accessOf, type Route } from "./route.ts";

/** Every route's possible answers beside its own `errors`: it has an `Allow` list and can fail; one behind a key can be refused. */
const EVERY_ROUTE = [405, 500] as const;
/**
 * A keyed route reads the database (the key, then its data), so it can find it down, stalled or locked
 * (docs/decisions.md#database-faults); a write can also meet a full disk (docs/decisions.md#faults).
 */
const KEYED_ROUTE = [401, 503, ...EVERY_ROUTE] as const;

/**
 * Every error status a route can answer: its declared ones and those every route of its access can.
 * @example documentedErrors(route) // [400, 401, 404, 405, 500]
 */
export function documentedErrors(route: Route): number[] {
  const access = accessOf(route);
  const common = access === "open" ? EVERY_ROUTE : KEYED_ROUTE;
  return [...new Set([...route.errors, ...common])].sort((a, b) => a - b);
}

const RETRY_AFTER: Record<number, string> = { 401: "On a rate-limit refusal: seconds to wait.", 503: "On Storage full or Database unavailable: seconds to wait before sending the request again; on a solver refusal, before asking again." };

const RATE_LIMIT_HEADERS = {
  ...Object.fromEntries(Object.entries(RATE_LIMIT_FIELDS).map(([name, { description, type }]) => [name, { description, schema: { type } }])),
  "X-Request-Id": { description: "The caller's X-Request-Id (up to 64 printable characters) or a generated one.", schema: { type: "string" } },
};
const ETAG_HEADER = {
  ETag: {
    description: "A strong validator of the body without its `timestamp`: unchanged data, unchanged tag. Send it back in If-None-Match.",
    schema: { type: "string" },
  },
};
const IF_NONE_MATCH = "The ETag of the answer you hold (or several, comma-separated, or `*`): an unchanged answer is a 304 with no body, not counted against the key's rate limit.";
const NOT_MODIFIED = "Not modified: If-None-Match names the current ETag. No body; not counted against the key's rate limit (the key needs room in its window, which this answer does not use).";
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
 * The OpenAPI 3.1 document of the v1 surface, generated from the route table: the same zod schemas
 * validate requests, and the same declarations give each route's errors. Open routes (the probes for
 * supervisors and load balancers) are in it with no security and no rate-limit headers.
 * @example const doc = openApiDocument(routes); doc.paths["/v1/health"].get.summary // "Service status and version"
 */
export function openApiDocument(routes: readonly Route[]): Record<string, unknown> {
  const { components, toSchema } = schemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const open = accessOf(route) === "open";
    const path = route.path.replace(/:([a-zA-Z]+)/g, "{$1}");
    const method = route.method.toLowerCase();
    const parameters: unknown[] = Object.entries(route.params).map(([name, description]) => ({ name, in: "path", required: true, description, schema: { type: "string" } }));
    for (const [name, field] of Object.entries(route.query?.shape ?? {})) {
      const { description, ...schema } = toSchema(field as z.ZodType, "input") as { description?: string };
      parameters.push({ name, in: "query", required: false, description, schema });
    }
    const ok = route.response;
    const etag = route.etag ? { ETag: { $ref: "#/components/headers/ETag" } } : {};
    if (route.etag) parameters.push({ name: "If-None-Match", in: "header", required: false, description: IF_NONE_MATCH, schema: { type: "string" } });
    const responses: Record<string, unknown> = {
      [ok.status]: {
        description: ok.description,
        headers: { ...(open ? {} : rateLimitRefs), ...etag, ...Object.fromEntries(Object.entries(ok.headers ?? {}).map(([h, d]) => [h, { description: d, schema: { type: "string" } }])) },
        content: { [ok.contentType ?? "application/json"]: { schema: toSchema(ok.schema, "output") } },
      },
      ...(ok.created
        ? {
            201: {
              description: ok.created.description,
              headers: { ...rateLimitRefs, ...Object.fromEntries(Object.entries(ok.created.headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }])) },
              content: { "application/json": { schema: toSchema(ok.schema, "output") } },
            },
          }
        : {}),
      ...(route.etag ? { 304: { description: NOT_MODIFIED, headers: { ...rateLimitRefs, ...etag } } } : {}),
    };
    for (const status of documentedErrors(route)) {
      responses[status] = {
        description: STATUS_TEXT[status],
        headers: RETRY_AFTER[status] ? { "Retry-After": { description: RETRY_AFTER[status], schema: { type: "integer" } } } : status === 405 ? { Allow: { description: "The methods this path serves.", schema: { type: "string" } } } : {},
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    (paths[path] ??= {})[method] = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      operationId: `${method}${path.replace(/[{}]/g, "").replace(/\/v1\//, "/").split(/[/.]/).filter(Boolean).map((s) => s[0]!.toUpperCase() + s.slice(1)).join("")}`,
      ...(open ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(route.body, "input") } } } } : {}),
      responses,
    };
  }
  toSchema(R.errorObject, "output");
  const SENT =
    "Sent to every enabled webhook registered for the event (`feedbase webhook add`; `formula.cost_changed` only to those whose --events names it). Verify `X-Webhook-Signature` (hex HMAC-SHA256 of the raw body with the secret) or the Standard Webhooks `webhook-signature`; answer 2xx to acknowledge. At-least-once: de-duplicate by `webhook-id`. `X-Webhook-Event-Id` is the event's id, the cursor of GET /v1/events.";
  const event = (name: string, schema: z.ZodType, description = SENT) => ({
    post: {
      summary: `${name} webhook`,
      description,
      parameters: [
        { name: "X-Webhook-Event", in: "header", required: true, schema: { type: "string", const: name } },
        { name: "X-Webhook-Signature", in: "header", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}$" } },
        { name: "X-Webhook-Id", in: "header", required: true, schema: { type: "string" } },
        ...(name === "ping" ? [] : [{ name: "X-Webhook-Event-Id", in: "header", required: true, schema: { type: "string", pattern: "^[0-9]+$" } }]),
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
    paths,
    webhooks: {
      "price.updated": event("price.updated", R.priceUpdatedPayload),
      "ingredient.added": event("ingredient.added", R.ingredientAddedPayload),
      "formula.cost_changed": event("formula.cost_changed", H.formulaCostChangedPayload),
      "formula.updated": event("formula.updated", formulaUpdatedPayload),
      "plan.updated": event("plan.updated", planUpdatedPayload),
      "analysis.added": event("analysis.added", analysisAddedPayload),
      ping: event(
        "ping",
        R.pingPayload,
        "Sent only when the admin runs `feedbase webhook ping <id>` (or `webhook add --ping`), to any webhook whatever its events, to test the receiver: signed like every delivery, with a `ping_…` id; not stored, not retried. Verify it and answer 2xx.",
      ),
    },
    components: {
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`fbk_` + 40 characters, issued with `feedbase key create`." } },
      headers: { ...RATE_LIMIT_HEADERS, ...ETAG_HEADER },
      schemas: components,
    },
  };
}
