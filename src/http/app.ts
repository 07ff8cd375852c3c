import { systemClock, timestamper, type Clock } from "../domain/time.ts";
import { jsonString, type Logger } from "../log.ts";
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
import { ReplyHeaders } from "./reply-headers.ts";
import type { MetricsEndpoint } from "../metrics/endpoint.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { consoleAnswer } from "./console.ts";
import { requestState, type RequestState } from "./request-state.ts";
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

/**
 * The HTTP surface as a function. `connection` names the client's connection (address and port) when
 * the request came over a socket: writes on a connection known to wait for its answers may share a
 * commit (src/http/pipelining.ts). A call without one (in-process) has no socket to pipeline on and
 * always may; committing in a microtask there would also keep a caller's request loop from ever
 * yielding to timers.
 */
export type AppFetch = (req: Request, connection?: string) => Response | Promise<Response>;

/**
 * The HTTP surface as a fetch function, sockets aside: authentication, route and method, permission,
 * then the handler, in the order of docs/decisions.md#http; every answer carries X-Request-Id and is
 * logged as one JSON line. `startHttpServer` puts it on Bun.serve; tests may call it directly.
 * @example const fetch = createFetch({ routes, backend, findKey, version, logger, limiter, readiness }); await fetch(new Request("http://x/healthz"))
 */
export function createFetch(options: FetchDeps): AppFetch {
  const app = new HttpApp(options);
  return (req, connection) => app.fetch(req, connection);
}

/**
 * The stages of a request, each a method over its `RequestState`: `begin` (cut the URL, name the
 * request), `handle` (outside /v1, or authenticate), `keyed` (the rate limit, deferred for a
 * conditional GET), `route` (the cached-answer fast path, routing, permission, the handler), `failure`
 * (an error as its answer) and `finish` (headers, log line, metrics). Synchronous wherever the handler
 * is, so a cached GET makes no promise.
 */
class HttpApp {
  private readonly clock: Clock;
  private readonly router: Router;
  private readonly accessLog: boolean;
  private readonly recorder: ServiceMetrics | null;
  private readonly caches: AppCaches;
  private readonly cachedReply: ReturnType<typeof cachedReplies>;
  /** Requests in the same millisecond share one timestamp string (and so one finished cached body). */
  private readonly timestampOf = timestamper();
  private readonly pipelines = new PipelineWatch();
  private readonly headers = new ReplyHeaders();

  constructor(private readonly options: FetchDeps) {
    this.clock = options.clock ?? systemClock;
    this.router = new Router(options.routes);
    this.accessLog = options.accessLog ?? true;
    this.recorder = options.metrics?.recorder ?? null;
    this.caches = options.caches ?? appCaches();
    this.cachedReply = cachedReplies(this.caches.bodies);
  }

  fetch(req: Request, connection: string | undefined): Response | Promise<Response> {
    const state = this.begin(req, connection);
    let outcome: Reply | Promise<Reply>;
    try {
      outcome = this.handle(state);
    } catch (error) {
      outcome = this.failure(state, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (reply) => this.finish(state, reply, true),
        (error) => this.finish(state, this.failure(state, error), true),
      );
    }
    return this.finish(state, outcome, false);
  }

  /** The request's state, made when it comes: whether it may share a commit. */
  private begin(req: Request, connection: string | undefined): RequestState {
    const started = performance.now();
    return requestState(req, { started, mayShareCommit: connection === undefined || this.pipelines.note(connection) });
  }

  /** Outside /v1: the console or an open route; inside, the key first (kept per generation, so usually no promise). */
  private handle(state: RequestState): Reply | Promise<Reply> {
    state.now = this.clock();
    state.generation = this.options.version.current();
    const { path } = state;
    if (path !== "/v1" && !path.startsWith("/v1/")) {
      const page = this.options.console ? consoleAnswer(state.req, path) : null;
      if (page !== null) {
        state.route = page.route;
        return page.reply;
      }
      return this.route(state);
    }
    const key = authenticate(this.options.findKey, state.req.headers.get("x-api-key"), this.caches.keys, state.generation);
    if (key instanceof Promise) return key.then((found) => this.keyed(state, found));
    return this.keyed(state, key);
  }

  /**
   * The rate limit, once the key is known. A conditional GET from a key with room is routed before it
   * is counted: a 304 from a kept body leaves the window untouched; anything else is counted before any
   * work (a build of its body, or waiting for one), or once answered, and refused if the window filled
   * meanwhile (docs/decisions.md#http).
   */
  private keyed(state: RequestState, key: KeyAuth): Reply | Promise<Reply> {
    state.key = key;
    const { req } = state;
    const ifNoneMatch = req.method === "GET" || req.method === "HEAD" ? req.headers.get("if-none-match") : null;
    const room = ifNoneMatch === null ? null : this.options.limiter.check(key.id, key.rateLimit, false);
    if (room === null || !room.allowed) {
      this.count(state, key);
      return this.route(state);
    }
    state.ifNoneMatch = ifNoneMatch;
    state.deferred = true;
    const settle = (reply: Reply): Reply => {
      if (state.deferred && reply.status === 304) {
        state.deferred = false;
        state.limitHeaders = rateLimitHeaders(room, state.now);
      }
      this.countDeferred(state);
      return reply;
    };
    const refused = (error: unknown): never => {
      this.countDeferred(state);
      throw error;
    };
    let outcome: Reply | Promise<Reply>;
    try {
      outcome = this.route(state);
    } catch (error) {
      return refused(error);
    }
    return outcome instanceof Promise ? outcome.then(settle, refused) : settle(outcome);
  }

  /** Count one request against the key's window; over the limit it is refused (401). */
  private count(state: RequestState, key: KeyAuth): void {
    const decision = this.options.limiter.check(key.id, key.rateLimit);
    state.limitHeaders = rateLimitHeaders(decision, state.now);
    if (!decision.allowed) {
      state.refusedLimit = decision.limit;
      this.recorder?.rateLimited();
      throw new HttpError(401, "Rate limit exceeded", { "Retry-After": String(Math.max(1, decision.resetSeconds)) });
    }
  }

  /** A deferred conditional GET about to cost work is counted now (401 if the window filled meanwhile). */
  private countDeferred(state: RequestState): void {
    if (!state.deferred) return;
    state.deferred = false;
    this.count(state, state.key!);
  }

  /**
   * Route and method, permission, then the handler. A GET the workspace already had answered from the
   * cache in this generation is answered again from what it got, without routing: the same path and
   * query in the same workspace and generation pass the same checks and name the same cached body.
   */
  private route(state: RequestState): Reply | Promise<Reply> {
    const { req, key, generation, ifNoneMatch } = state;
    const { answered, bodies } = this.caches;
    const seen = key !== null && (req.method === "GET" || req.method === "HEAD") ? `${key.workspaceId} ${state.path}?${state.query}` : null;
    if (seen !== null) {
      const hit = answered.peek(generation, seen);
      const body = hit && bodies.peek(generation, hit.bodyKey);
      if (hit && body) {
        state.quiet = hit.quiet;
        state.route = hit.route;
        return replyWith(body, hit.timed ? this.timestampOf(state.now) : undefined, hit.etag, ifNoneMatch);
      }
    }
    const match = this.router.match(req.method, state.path);
    if (match.kind === "none") throw new HttpError(404, "Not found");
    state.quiet = match.quiet;
    state.route = match.kind === "found" ? match.route.route.path : null;
    if (match.kind === "method") throw new HttpError(405, "Method not allowed", { Allow: match.allow });
    if (accessOf(match.route.route) === "write" && !key!.canWrite) throw new HttpError(403, "Write permission required");
    const timestamp = this.timestampOf(state.now);
    const etag = match.route.route.etag === true;
    // Only reads: their answer depends on the key's workspace alone, never on its permissions.
    const remember = seen !== null && accessOf(match.route.route) === "read" ? seen : null;
    const { quiet } = match;
    const keep = (bodyKey: string, timed: boolean) => {
      if (remember !== null) answered.put(generation, remember, { bodyKey, timed, etag, route: state.route!, quiet });
    };
    const { backend } = this.options;
    const ctx = {
      req,
      key,
      clock: this.clock,
      timestamp,
      rawQuery: state.query,
      read: backend.read,
      write: state.mayShareCommit ? backend.batchedWrite : backend.write,
      cached: (k, build, options) =>
        this.cachedReply({ generation, key: k, build, timestamp: options === undefined ? timestamp : undefined, etag, ifNoneMatch, keep, beforeWork: () => this.countDeferred(state) }),
      kept: async (k, build) => this.caches.inputs.peek(generation, k) ?? this.caches.inputs.put(generation, k, await build()),
      readiness: this.options.readiness,
      metrics: this.options.metrics?.endpoint ?? null,
      solver: this.options.solver,
    } as RequestContext;
    return dispatch(match.route, ctx, match.params, state.query);
  }

  /** An error as its answer: a known one by the failure table, anything else a logged 500. */
  private failure(state: RequestState, error: unknown): Reply {
    const known = toHttpError(error);
    if (known) return jsonReply(known.status, errorBody(known.message), known.headers);
    this.options.logger.log("error", "unhandled error", { requestId: state.requestId, method: state.req.method, path: state.path, error: String((error as Error)?.stack ?? error) });
    return jsonReply(500, errorBody("Internal server error"));
  }

  /** One Response with every header at once (src/http/reply-headers.ts), its log line, its metrics. */
  private finish(state: RequestState, reply: Reply, waited: boolean): Response {
    const { req, requestId } = state;
    if (!state.quiet && (this.accessLog || state.refusedLimit !== null)) {
      const keyId = state.key?.id;
      // Written as JSON text directly (a method is an HTTP token: no quote or backslash can be in it).
      // Only an answer that waited (for the database) can outlive its client; a sync one skips the look.
      const line =
        `"requestId":${jsonString(requestId)},"method":"${req.method}","path":${jsonString(state.path)},"status":${reply.status},` +
        `"ms":${Math.round((performance.now() - state.started) * 1000) / 1000},"keyId":${keyId === undefined ? "null" : jsonString(keyId)}` +
        (waited && req.signal.aborted ? ',"sent":false' : "");
      // One line per request. A 401 for a limit looks like a revoked key to an integrator: the refusal's
      // line is a warn naming the limit, so the admin can tell which (and sees it with the access log off).
      if (state.refusedLimit === null) this.options.logger.logJson("info", "request", line);
      else this.options.logger.logJson("warn", "rate limit exceeded", `${line},"limit":${state.refusedLimit}`);
    }
    // Requests refused before routing (401) are counted under their path's template when it has one.
    if (this.recorder) this.recorder.request(state.route ?? this.router.templateOf(state.path), req.method, reply.status, (performance.now() - state.started) / 1000);
    return new Response(reply.body, { status: reply.status, headers: this.headers.of(reply.status, requestId, state.limitHeaders, reply.headers) });
  }
}
