import type { z } from "zod";
import type { Clock } from "../domain/time.ts";
import type { Reads, Writes } from "../store/backend.ts";
import type { KeyAuth } from "../store/keys.ts";
import type { MetricsEndpoint } from "../metrics/endpoint.ts";
import type { Reply } from "./envelope.ts";
import type { Solver } from "../optimize/pool.ts";

/** The methods a route declares; HEAD is served by GET wherever GET is. */
export type Method = "GET" | "POST" | "PUT";

/** `"/v1/formulas/:id/cost"` → `"id"`: the names of a path's parameters, for typed `params`. */
export type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A query schema is an object of parameters; an array-typed one collects every repeat (`?price=a&price=b`). */
export type QuerySchema = z.ZodObject;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What every handler may use: the request and the services of the running app. */
export interface OpenContext {
  req: Request;
  clock: Clock;
  /** The request's time, as the ISO 8601 `timestamp` of the envelope. */
  timestamp: string;
  /** The query string as sent, undecoded ("" when none): for parameters with their own splitting rules. */
  rawQuery: string;
  /** The reads of the storage backend (src/store/backend.ts); `await` them: another backend may be async. */
  read: Reads;
  /** The writes of the storage backend, each one write of the group commit; resolves once durable. */
  write: Writes;
  /**
   * A 200 whose body is derived from the data only: `build` (returning an `openBody`) runs on a miss,
   * and the serialized body is kept while the data is unchanged (src/http/read-cache.ts), so a hit
   * answers synchronously. The key must name everything the body depends on. The envelope gets the
   * request's `timestamp` unless `timestamp: false` (the price list, as the spec has it).
   */
  cached(key: string, build: () => string | Promise<string>, options?: { timestamp: false }): Reply | Promise<Reply>;
  /**
   * Text derived from the data only (a solve's input as JSON), built on a miss and kept while the data
   * is unchanged, like `cached`'s bodies: what-ifs on one formula read and serialize it once.
   */
  kept(key: string, build: () => Promise<string>): Promise<string>;
  /** The readiness checks that fail now (src/http/readiness.ts); empty when the service is ready. */
  readiness(): Promise<string[]>;
  /** `GET /metrics`, or null when serve runs without --metrics. */
  metrics: MetricsEndpoint | null;
  /** The solver pool: every HiGHS solve goes through `solver.run` or `solver.runJson` (src/optimize/tasks.ts). */
  solver: Solver;
}

/** The context of a route behind a key: the key it was called with, which scopes it to one workspace. */
export interface RequestContext extends OpenContext {
  key: KeyAuth;
}

/**
 * Who may call a route. `read`: any active key (the default of GET); `write`: a key with write
 * permission (the default of POST and PUT; 403 otherwise); `open`: no key and no rate limit, for
 * process supervisors and scrapers, outside /v1 and outside the OpenAPI document.
 */
export type Access = "open" | "read" | "write";

/** What the router hands a handler beside the context: the validated, typed parts of the request. */
export interface RouteInput<P extends string, Q, B, F> {
  /** Path parameters, percent-decoded once. */
  params: Record<ParamNames<P>, string>;
  /** The query, validated by the route's `query` schema (`{}` when the route declares none). */
  query: Q;
  /** The JSON body, validated by the route's `body` schema. */
  body: B;
  /** What the route's `lookup` found. */
  found: Awaited<F>;
}

/** Errors a route's own work may answer (405 and 500 are every route's, 401 every keyed route's: always documented). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 503;

type ContextOf<A extends Access> = A extends "open" ? OpenContext : RequestContext;

export interface RouteSpec<P extends string, Q extends QuerySchema | undefined, B extends z.ZodType | undefined, F, A extends Access> {
  method: Method;
  /** Default: `read` for GET, `write` for POST and PUT. */
  access?: A;
  /** Not logged per request (probes polled every few seconds, like /healthz). */
  quiet?: boolean;
  /**
   * The GET answers through `ctx.cached`: its 200 carries a strong `ETag`, and an `If-None-Match` that
   * names it is a 304, not counted against the key's limit (docs/decisions.md#http).
   */
  etag?: boolean;
  /** `/v1/ingredients/:name`: literal segments and `:param` segments. */
  path: P;
  summary: string;
  description?: string;
  /** One description per path parameter, for the OpenAPI document. */
  params: Record<ParamNames<P>, string>;
  query?: Q;
  body?: B;
  /**
   * The record the path names, looked up after the body and before the query is validated, so an
   * unknown name or id is 404 before a bad query parameter's 400 (docs/decisions.md#http).
   */
  lookup?: (ctx: ContextOf<A>, params: Record<ParamNames<P>, string>) => F;
  /** The success answer; `schema` documents it and test/helpers/contract.ts checks every one the suite sees. */
  response: {
    status: 200 | 201;
    description: string;
    schema: z.ZodType;
    headers?: Record<string, string>;
    contentType?: string;
    /** A PUT that creates when the record is new: then 201 with the same schema and these headers (`Location`), else `status`. */
    created?: { description: string; headers: Record<string, string> };
  };
  /** Every status beyond 401, 405 and 500 that this route can answer; test/openapi.test.ts checks it covers the router's own. */
  errors: readonly ErrorStatus[];
  handle(ctx: ContextOf<A>, input: RouteInput<P, Out<Q>, Out<B>, F>): Reply | Promise<Reply>;
}

/** A route of the table with its types erased: what the router and the OpenAPI generator read. */
export interface Route {
  method: Method;
  access?: Access;
  quiet?: boolean;
  etag?: boolean;
  path: string;
  summary: string;
  description?: string;
  params: Record<string, string>;
  query?: QuerySchema;
  body?: z.ZodType;
  lookup?: (ctx: RequestContext, params: Record<string, string>) => unknown;
  response: RouteSpec<string, undefined, undefined, unknown, Access>["response"];
  errors: readonly ErrorStatus[];
  handle(ctx: RequestContext, input: RouteInput<string, unknown, unknown, unknown>): Reply | Promise<Reply>;
}

/**
 * One entry of the route table, with the handler's `params`, `query`, `body` and `found` typed from
 * the declaration. Adding a route is one such entry in its resource's file under src/http/routes/.
 * @example
 * defineRoute({
 *   method: "GET", path: "/v1/formulas/:id", summary: "One formula", params: { id: "Formula id." },
 *   response: { status: 200, description: "The formula", schema: formulaRead }, errors: [400, 404],
 *   handle: (ctx, { params }) => ctx.cached(cacheKey("formula", ctx.key.workspaceId, params.id), async () => openBody(await ctx.read.requireFormula(ctx.key.workspaceId, params.id))),
 * })
 */
export function defineRoute<P extends string, Q extends QuerySchema | undefined = undefined, B extends z.ZodType | undefined = undefined, F = undefined, A extends Access = "read" | "write">(
  spec: RouteSpec<P, Q, B, F, A>,
): Route {
  return spec as unknown as Route;
}

/** Who may call a route, its default filled in (docs/decisions.md#keys-and-authentication). @example accessOf({ method: "PUT" }) // "write" */
export const accessOf = (route: Pick<Route, "method" | "access">): Access => route.access ?? (route.method === "GET" ? "read" : "write");
