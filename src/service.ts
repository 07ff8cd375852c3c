import type { Database } from "bun:sqlite";
import { systemClock, type Clock } from "./domain/time.ts";
import { routes } from "./http/routes/index.ts";
import { createFetch } from "./http/app.ts";
import { appCaches } from "./http/app-caches.ts";
import { startHttpServer } from "./http/server.ts";
import { defaultPoolSize, SolverPool } from "./optimize/pool.ts";
import { createLogger, type Logger, type LogLevel } from "./log.ts";
import { startHeapTrim } from "./heap-trim.ts";
import type { DataLocation } from "./store/location.ts";
import { startDeliveryLoop } from "./webhooks/delivery-loop.ts";
import { DEFAULT_TUNING, type DeliveryTuning } from "./webhooks/delivery-tuning.ts";
import { openStore } from "./open/open.ts";
import type { ServedStore } from "./open/store.ts";
import { readiness as readinessChecks } from "./http/readiness.ts";
import { SharedCounts } from "./limiter/shared-counts.ts";
import { SlidingWindowLimiter } from "./limiter/sliding-window.ts";
import { ServiceMetrics } from "./metrics/service-metrics.ts";
import { metricsEndpoint } from "./metrics/endpoint.ts";

/** How long after the start the solver workers are started: past the first requests of a fresh start. */
const SOLVER_WARM_DELAY_MS = 1_000;
/** `serve --solve-timeout`'s default: a formula of hundreds of rows solves in well under a second. */
export const DEFAULT_SOLVE_TIMEOUT_MS = 5_000;
/** Solves that may wait for a worker, per worker; beyond it a solve is refused (503). */
const QUEUE_PER_WORKER = 32;

export interface ServiceOptions {
  /** Where the data lives: an SQLite file (created if missing) or a PostgreSQL database. */
  data: DataLocation;
  host: string;
  port: number;
  clock?: Clock;
  logger?: Logger;
  /** For the logger made here (default info); a given `logger` keeps its own. */
  logLevel?: LogLevel;
  /** One info line per request (default on). */
  accessLog?: boolean;
  tls?: { cert: string; key: string };
  /** Webhook retry schedule, retention and limits; the defaults of docs/decisions.md#webhooks when absent. */
  webhooks?: Partial<DeliveryTuning>;
  /** Serve `GET /metrics` (off by default), optionally only for `Authorization: Bearer <token>`. */
  metrics?: { token: string | null };
  /** The web console at / and /console/ (default on; `serve --console off`). */
  console?: boolean;
  /** SQLite: fold the price log after this long without a write (default 2 s; tests shorten it). */
  foldQuietMs?: number;
  /** The solver pool (docs/decisions.md#solver-pool): time limit per solve, workers, queue bound. */
  solver?: { timeoutMs?: number; workers?: number; maxQueue?: number };
  /** PostgreSQL: the connections this instance keeps open (`serve --database-connections`; default 10). */
  databaseConnections?: number;
}

export interface RunningService {
  url: URL;
  port: number;
  /** The HTTP surface without the socket: what the server answers, for in-process callers (tests). */
  fetch: (req: Request) => Response | Promise<Response>;
  /** The SQLite connection; null on PostgreSQL. */
  db: Database | null;
  logger: Logger;
  /** Stop accepting, let in-flight requests finish, stop delivering, then close the database (on SQLite, folding the WAL into the file). */
  stop(): Promise<void>;
}

/** Start exchanging rate-limit counts with the other instances; a failed exchange is logged and retried. */
async function startSharedCounts(shared: NonNullable<ServedStore["sharedCounts"]>, logger: Logger, clock: Clock): Promise<SharedCounts> {
  const counts = new SharedCounts(shared.store, {
    instance: shared.instance,
    clock,
    onError: (error) => logger.log("error", "rate-limit counts could not be exchanged: limits go on with what was last heard", { error: String(error) }),
    onRecovered: () => logger.log("info", "rate-limit counts exchanged again"),
  });
  await counts.start();
  return counts;
}

/** Another process listens on the port (Bun says EADDRINUSE). @example throw new PortInUseError(8080) */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is already in use`);
  }
}

/**
 * What `feedbase serve` runs: the store (src/open/open.ts), the HTTP API and the webhook delivery loop
 * on it. Tests start it in-process on port 0 with a temporary file (or database) and,
 * where time matters, their own clock.
 * @example const svc = await startService({ data: { kind: "sqlite", path: "/tmp/t.db" }, host: "127.0.0.1", port: 0 })
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(undefined, clock, options.logLevel);
  let recorder: ServiceMetrics | null = null;
  const onCommit = (size: number) => recorder?.commit(size);
  const perWebhook = options.webhooks?.perWebhook ?? DEFAULT_TUNING.perWebhook;
  const store = await openStore(options.data, { create: true, serve: { logger, clock, onCommit, perWebhook, foldQuietMs: options.foldQuietMs, connections: options.databaseConnections } });
  let counts: SharedCounts | null;
  try {
    counts = store.sharedCounts && (await startSharedCounts(store.sharedCounts, logger, clock));
  } catch (error) {
    await store.close();
    throw error;
  }
  const deliveries = startDeliveryLoop({
    store: store.deliveries,
    logger,
    clock,
    onOutcome: (outcome) => recorder?.delivery(outcome),
    ...(options.webhooks ? { tuning: options.webhooks } : {}),
  });
  // An API write's event starts its deliveries as soon as it commits.
  store.afterWrite(() => deliveries.wake());
  const readiness = readinessChecks({ ...store.readiness, deliveryLoopRanAt: () => deliveries.lastRanAt() });
  /** Stop delivering (attempts in flight get their grace) and exchanging counts, then close the database. */
  const close = async () => {
    await deliveries.stop();
    await counts?.stop().catch((error: unknown) => logger.log("error", "rate-limit counts could not be written at stop", { error: String(error) }));
    await store.close();
  };
  const caches = appCaches();
  const workers = options.solver?.workers ?? defaultPoolSize();
  const pool = new SolverPool({
    size: workers,
    timeoutMs: options.solver?.timeoutMs ?? DEFAULT_SOLVE_TIMEOUT_MS,
    maxQueue: options.solver?.maxQueue ?? QUEUE_PER_WORKER * workers,
    logger,
  });
  // In memory, per process (docs/decisions.md#rate-limiting): a restart forgets counts, which only ever lets a key through sooner;
  // on PostgreSQL, plus what the other instances on the database accepted.
  const limiter = new SlidingWindowLimiter({ clock, ...(counts ? { shared: counts } : {}) });
  if (options.metrics) {
    recorder = new ServiceMetrics({ pending: store.pending, dataPath: store.dataPath, clock, readiness, writesWaiting: store.writesWaiting, cacheBytes: caches.bytes, limiterBytes: () => limiter.bytes });
  }
  const fetch = createFetch({
    routes,
    backend: store.backend,
    findKey: store.findKey,
    logger,
    limiter,
    clock,
    version: store.freshness,
    readiness,
    console: options.console ?? true,
    caches,
    solver: pool,
    ...(recorder ? { metrics: { recorder, endpoint: metricsEndpoint(recorder, options.metrics!.token) } } : {}),
    ...(options.accessLog !== undefined ? { accessLog: options.accessLog } : {}),
  });
  let server: ReturnType<typeof startHttpServer>;
  try {
    server = startHttpServer({ fetch, host: options.host, port: options.port, ...(options.tls ? { tls: options.tls } : {}) });
  } catch (error) {
    // Nothing may go on without the server: no delivery from a process that could not listen.
    pool.close();
    await close();
    if ((error as { code?: string }).code === "EADDRINUSE") throw new PortInUseError(options.port);
    throw error;
  }
  // Start the solver workers soon, so the first optimization does not wait the ~0.2 s each takes to
  // compile HiGHS, but after the start: the first answers do not wait for them either.
  const warmSolver = setTimeout(() => pool.start(), SOLVER_WARM_DELAY_MS);
  warmSolver.unref();
  const stopHeapTrim = startHeapTrim();
  const url = new URL(server.url.href);
  return {
    url,
    port: server.port!,
    fetch,
    db: store.db,
    logger,
    async stop() {
      clearTimeout(warmSolver);
      stopHeapTrim();
      await server.stop();
      pool.close();
      await close();
      logger.flush();
    },
  };
}
