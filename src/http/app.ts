import { systemClock, timestamper, type Clock } from "../domain/time.ts";
import type { Logger } from "../log.ts";
import type { KeyAuth } from "../store/keys.ts";
import type { Backend } from "../store/backend.ts";
import { authenticate, type FindKey } from "./auth.ts";
import { appCaches, type AppCaches } from "./app-caches.ts";
import { errorBody, jsonReply, type Reply } from "./envelope.ts";
import { cachedReplies, replyWith } from "./cached-reply.ts";
import { HttpError, toHttpError } from "./errors.ts";
import { dispatch, Router } from "./router.ts";
import { accessOf, type RequestContext, type Route } from "./route.ts";
import type { SlidingWindowLimiter } from "../limiter/sliding-window.ts";
import { rateLimitHeaders } from "./rate-limit.ts";
import { PipelineWatch } from "./pipelining.ts";
import type { MetricsEndpoint } from "../metrics/endpoint.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { consoleAnswer } from "./console.ts";
import type { Solver } from "../optimize/pool.ts";

export interface FetchDeps {
  routes: readonly Route[];
  /** The reads and writes handlers get (src/store/backend.ts). */
  backend: Backend;
  /** The key behind an `X-API-Key` value, active or not; null when unknown (a promise on PostgreSQL). */
  findKey: FindKey;
  logger: Logger;
  limiter: SlidingWindowLimiter;
  clock?: Clock;
  /** The data generation: cached bodies and keys are kept while it holds (src/store/data-version.ts). */
  version: { current(): number };
  /** One info line per request (default on); rate-limit refusals are logged at warn either way. */
  accessLog?: boolean;
  /** The failed readiness checks (src/http/readiness.ts), for `GET /readyz`. */
  readiness: () => Promise<string[]>;
  /** With `serve --metrics`: every answer is counted, and `GET /metrics` shows it. */
  metrics?: { recorder: ServiceMetrics; endpoint: MetricsEndpoint };
  /** Serve the web console at / and /console/ (src/http/console.ts); off: those paths are 404 like any unknown one. */
  console?: boolean;
  /** The read caches (made here when not given; the service gives its own, to show their size in metrics). */
  caches?: AppCaches;
  /** Where solves run (src/optimize/pool.ts). */
  solver: Solver;
}

const REQUEST_ID = /^[\x20-\x7e]{1,64}$/;

/**
 * The HTTP surface as a function. `connection` names the client's connection (address and port) when
 * the request came over a socket: writes on a connection known to wait for its answers may share a
 * commit (src/http/pipelining.ts). A call without one (in-process) has no socket to pipeline on and
 * always may; committing in a microtask there would also keep a caller's request loop from ever
 * yielding to timers.
 */
export type AppFetch = (req: Request, connection?: string) => Response | Promise<Response>;

let requestCounter = 0;
const requestIdPrefix = crypto.randomUUID().slice(0, 8);

/**
 * The HTTP surface as a fetch function, sockets aside: authentication, route and method, permission,
 * then the handler, in the order of docs/decisions.md#http; every answer carries X-Request-Id and is
 * logged as one JSON line. `startHttpServer` puts it on Bun.serve; tests may call it directly.
 * @example const fetch = createFetch({ routes, backend, findKey, version, logger, limiter, readiness }); await fetch(new Request("http://x/healthz"))
 */
export function createFetch(options: FetchDeps): AppFetch {
  const { logger, backend, version } = options;
  const clock = options.clock ?? systemClock;
  const router = new Router(options.routes);
  const accessLog = options.accessLog ?? true;
  const recorder = options.metrics?.recorder ?? null;
  const endpoint = options.metrics?.endpoint ?? null;
  const { keys, bodies, answered } = options.caches ?? appCaches();
  const cachedReply = cachedReplies(bodies);
  // Requests in the same millisecond share one timestamp string (and so one finished cached body).
  const timestampOf = timestamper();
  const pipelines = new PipelineWatch();

  interface Caller {
    key: KeyAuth | null;
    limitHeaders: Record<string, string> | null;
    /** The limit a refused request exceeded: its log line is the warn one. */
    refusedLimit: number | null;
    /** The path's routes are probes that are not logged (/healthz). */
    quiet: boolean;
    /** The matched route's template, for metrics. */
    route: string | null;
    /** Its writes may wait for the turn's shared commit (nothing can be pipelined behind them). */
    mayShareCommit: boolean;
    /** A conditional GET not counted yet: counted before any work, or once answered unless a 304. */
    deferred: boolean;
  }

  /**
   * Everything up to the handler; synchronous where the handler is, so GETs need no promise. A
   * conditional GET from a key with room is routed before it is counted: a 304 from a kept body leaves
   * the window untouched; anything else is counted before any work (a build of its body, or waiting
   * for one), or once answered, and refused if the window filled meanwhile (docs/decisions.md#http).
   */
  function handle(req: Request, path: string, query: string, caller: Caller): Reply | Promise<Reply> {
    const now = clock();
    const generation = version.current();
    if (path !== "/v1" && !path.startsWith("/v1/")) {
      const page = options.console ? consoleAnswer(req, path) : null;
      if (page !== null) {
        caller.route = page.route;
        return page.reply;
      }
      return route(req, path, query, caller, null, now, generation, null);
    }
    const key = authenticate(options.findKey, req.headers.get("x-api-key"), keys, generation);
    if (key instanceof Promise) return key.then((found) => keyed(req, path, query, caller, found, now, generation));
    return keyed(req, path, query, caller, key, now, generation);
  }

  /** The rest of `handle` once the key is known. */
  function keyed(req: Request, path: string, query: string, caller: Caller, key: KeyAuth, now: number, generation: number): Reply | Promise<Reply> {
    caller.key = key;
    const ifNoneMatch = req.method === "GET" || req.method === "HEAD" ? req.headers.get("if-none-match") : null;
    const room = ifNoneMatch === null ? null : options.limiter.check(key.id, key.rateLimit, false);
    if (room === null || !room.allowed) {
      count(key, now, caller);
      return route(req, path, query, caller, key, now, generation, null);
    }
    caller.deferred = true;
    const settle = (reply: Reply): Reply => {
      if (caller.deferred && reply.status === 304) {
        caller.deferred = false;
        caller.limitHeaders = rateLimitHeaders(room, now);
      }
      countDeferred(key, now, caller);
      return reply;
    };
    const refused = (error: unknown): never => {
      countDeferred(key, now, caller);
      throw error;
    };
    let outcome: Reply | Promise<Reply>;
    try {
      outcome = route(req, path, query, caller, key, now, generation, ifNoneMatch);
    } catch (error) {
      return refused(error);
    }
    return outcome instanceof Promise ? outcome.then(settle, refused) : settle(outcome);
  }

  /** Count one request against the key's window; over the limit it is refused (401). */
  function count(key: KeyAuth, now: number, caller: Caller): void {
    const decision = options.limiter.check(key.id, key.rateLimit);
    caller.limitHeaders = rateLimitHeaders(decision, now);
    if (!decision.allowed) {
      caller.refusedLimit = decision.limit;
      recorder?.rateLimited();
      throw new HttpError(401, "Rate limit exceeded", { "Retry-After": String(Math.max(1, decision.resetSeconds)) });
    }
  }

  /**
   * Route and method, permission, then the handler. A GET the workspace already had answered from the
   * cache in this generation is answered again from what it got, without routing: the same path and
   * query in the same workspace and generation pass the same checks and name the same cached body.
   */
  function route(req: Request, path: string, query: string, caller: Caller, key: KeyAuth | null, now: number, generation: number, ifNoneMatch: string | null): Reply | Promise<Reply> {
    const seen = key !== null && (req.method === "GET" || req.method === "HEAD") ? `${key.workspaceId} ${path}?${query}` : null;
    if (seen !== null) {
      const hit = answered.peek(generation, seen);
      const body = hit && bodies.peek(generation, hit.bodyKey);
      if (hit && body) {
        caller.quiet = hit.quiet;
        caller.route = hit.route;
        return replyWith(body, hit.timed ? timestampOf(now) : undefined, hit.etag, ifNoneMatch);
      }
    }
    const match = router.match(req.method, path);
    if (match.kind === "none") throw new HttpError(404, "Not found");
    caller.quiet = match.quiet;
    caller.route = match.kind === "found" ? match.route.route.path : null;
    if (match.kind === "method") throw new HttpError(405, "Method not allowed", { Allow: match.allow });
    if (accessOf(match.route.route) === "write" && !key!.canWrite) throw new HttpError(403, "Write permission required");
    const timestamp = timestampOf(now);
    const etag = match.route.route.etag === true;
    // Only reads: their answer depends on the key's workspace alone, never on its permissions.
    const remember = seen !== null && accessOf(match.route.route) === "read" ? seen : null;
    const { quiet } = match;
    const keep = (bodyKey: string, timed: boolean) => {
      if (remember !== null) answered.put(generation, remember, { bodyKey, timed, etag, route: caller.route!, quiet });
    };
    const ctx = {
      req,
      key,
      clock,
      timestamp,
      rawQuery: query,
      read: backend.read,
      write: caller.mayShareCommit ? backend.batchedWrite : backend.write,
      cached: (k, build, options) =>
        cachedReply({ generation, key: k, build, timestamp: options === undefined ? timestamp : undefined, etag, ifNoneMatch, keep, beforeWork: () => countDeferred(key!, now, caller) }),
      readiness: options.readiness,
      metrics: endpoint,
      solver: options.solver,
    } as RequestContext;
    return dispatch(match.route, ctx, match.params, query);
  }

  /** A deferred conditional GET about to cost work is counted now (401 if the window filled meanwhile). */
  function countDeferred(key: KeyAuth, now: number, caller: Caller): void {
    if (!caller.deferred) return;
    caller.deferred = false;
    count(key, now, caller);
  }

  function failure(error: unknown, requestId: string, req: Request, path: string): Reply {
    const known = toHttpError(error);
    if (known) return jsonReply(known.status, errorBody(known.message), known.headers);
    logger.log("error", "unhandled error", { requestId, method: req.method, path, error: String((error as Error)?.stack ?? error) });
    return jsonReply(500, errorBody("Internal server error"));
  }

  /** One Response with every header at once: setting headers one by one afterwards costs more than the body. */
  function finish(reply: Reply, req: Request, path: string, requestId: string, caller: Caller, started: number, waited = false): Response {
    // A 304 has no body, so no type: its headers are those of the 200 it stands for.
    const headers: Record<string, string> = reply.status === 304 ? { "X-Request-Id": requestId } : { "Content-Type": "application/json", "X-Request-Id": requestId };
    if (caller.limitHeaders) for (const name in caller.limitHeaders) headers[name] = caller.limitHeaders[name]!;
    if (reply.headers) for (const name in reply.headers) headers[name] = reply.headers[name]!;
    if (!caller.quiet && (accessLog || caller.refusedLimit !== null)) {
      const keyId = caller.key?.id;
      // Written as JSON text directly (a method is an HTTP token: no quote or backslash can be in it).
      // Only an answer that waited (for the database) can outlive its client; a sync one skips the look.
      const line =
        `"requestId":${JSON.stringify(requestId)},"method":"${req.method}","path":${JSON.stringify(path)},"status":${reply.status},` +
        `"ms":${Math.round((performance.now() - started) * 1000) / 1000},"keyId":${keyId === undefined ? "null" : JSON.stringify(keyId)}` +
        (waited && req.signal.aborted ? ',"sent":false' : "");
      // One line per request. A 401 for a limit looks like a revoked key to an integrator: the refusal's
      // line is a warn naming the limit, so the admin can tell which (and sees it with the access log off).
      if (caller.refusedLimit === null) logger.logJson("info", "request", line);
      else logger.logJson("warn", "rate limit exceeded", `${line},"limit":${caller.refusedLimit}`);
    }
    // Requests refused before routing (401) are counted under their path's template when it has one.
    if (recorder) recorder.request(caller.route ?? router.templateOf(path), req.method, reply.status, (performance.now() - started) / 1000);
    return new Response(reply.body, { status: reply.status, headers });
  }

  return (req, connection) => {
    const started = performance.now();
    const url = req.url;
    // A request without a Host header (HTTP/1.0, as health checkers send) has a bare path for its url.
    const pathStart = url.charCodeAt(0) === 47 ? 0 : url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?", pathStart);
    const path = queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart);
    const query = queryStart === -1 ? "" : url.slice(queryStart + 1);
    const given = req.headers.get("x-request-id");
    const requestId = given !== null && REQUEST_ID.test(given) ? given : `${requestIdPrefix}-${(++requestCounter).toString(36)}`;
    const caller: Caller = { key: null, limitHeaders: null, refusedLimit: null, quiet: false, route: null, mayShareCommit: connection === undefined || pipelines.note(connection), deferred: false };
    let outcome: Reply | Promise<Reply>;
    try {
      outcome = handle(req, path, query, caller);
    } catch (error) {
      outcome = failure(error, requestId, req, path);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (reply) => finish(reply, req, path, requestId, caller, started, true),
        (error) => finish(failure(error, requestId, req, path), req, path, requestId, caller, started, true),
      );
    }
    return finish(outcome, req, path, requestId, caller, started);
  };
}
