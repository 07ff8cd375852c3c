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
import type { DeliveryTuning } from "./webhooks/delivery-loop.ts";
import type { ServedStore, StoreDeps } from "./service/served-store.ts";
import { openSqliteStore } from "./service/sqlite.ts";
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

/** Another process listens on the port (Bun says EADDRINUSE). @example throw new PortInUseError(8080) */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is already in use`);
  }
}

/**
 * What `feedbase serve` runs: the database (src/service/sqlite.ts or postgres.ts), the HTTP API and the
 * webhook delivery loop. Tests start it in-process on port 0 with a temporary file (or database) and,
 * where time matters, their own clock.
 * @example const svc = await startService({ data: { kind: "sqlite", path: "/tmp/t.db" }, host: "127.0.0.1", port: 0 })
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(undefined, clock, options.logLevel);
  let recorder: ServiceMetrics | null = null;
  const deps: StoreDeps = { logger, clock, webhooks: options.webhooks, onOutcome: (outcome) => recorder?.delivery(outcome), onCommit: (size) => recorder?.commit(size), foldQuietMs: options.foldQuietMs };
  // PostgreSQL's modules load only when used: an SQLite start does not pay for them.
  const store: ServedStore =
    options.data.kind === "sqlite" ? openSqliteStore(options.data.path, deps) : await (await import("./service/postgres.ts")).openPostgresStore(options.data.url, deps);
  const { readiness } = store;
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
  const limiter = new SlidingWindowLimiter({ clock, ...(store.sharedLimits ? { shared: store.sharedLimits } : {}) });
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
    version: store.version,
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
    await store.close();
    if ((error as { code?: string }).code === "EADDRINUSE") throw new PortInUseError(options.port);
    throw error;
  }
  // Start the solver workers soon, so the first optimization does not wait the ~0.1 s each takes to
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
      await store.close();
      logger.flush();
    },
  };
}
