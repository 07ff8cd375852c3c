import type { Database } from "bun:sqlite";
import { systemClock, type Clock } from "./domain/time.ts";
import { routes } from "./http/routes/index.ts";
import { createFetch } from "./http/app.ts";
import { startHttpServer } from "./http/server.ts";
import { SOLVER_WASM, solverRuntime } from "./optimize/runtime.ts";
import { readiness } from "./http/readiness.ts";
import { createLogger, type Logger, type LogLevel } from "./log.ts";
import { startHeapTrim } from "./heap-trim.ts";
import { closeDatabase, openDatabase } from "./store/db.ts";
import { MIGRATIONS } from "./store/migrations.ts";
import { DataVersion } from "./store/data-version.ts";
import { WriteQueue } from "./store/write-queue.ts";
import { sqliteBackend } from "./store/backend.ts";
import { findKey } from "./store/keys.ts";
import { startDeliveryLoop, type DeliveryTuning } from "./webhooks/delivery-loop.ts";
import { SlidingWindowLimiter } from "./limiter/sliding-window.ts";
import { ServiceMetrics } from "./metrics/service-metrics.ts";
import { metricsEndpoint } from "./metrics/endpoint.ts";

/** How long after the start the solver is compiled: past the first requests of a fresh start. */
const SOLVER_WARM_DELAY_MS = 1_000;

export interface ServiceOptions {
  dataPath: string;
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
}

export interface RunningService {
  url: URL;
  port: number;
  /** The HTTP surface without the socket: what the server answers, for in-process callers (tests). */
  fetch: (req: Request) => Response | Promise<Response>;
  db: Database;
  logger: Logger;
  /** Stop accepting, let in-flight requests finish, then fold the WAL into the data file and close it. */
  stop(): Promise<void>;
}

/** Another process listens on the port (Bun says EADDRINUSE). @example throw new PortInUseError(8080) */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is already in use`);
  }
}

/**
 * What `feedbase serve` runs: the data file, its group commit, the HTTP API and the webhook delivery loop.
 * Tests start it in-process on port 0 with a temporary file and, where time matters, their own clock.
 * @example const svc = startService({ dataPath: "/tmp/t.db", host: "127.0.0.1", port: 0 })
 */
export function startService(options: ServiceOptions): RunningService {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(undefined, clock, options.logLevel);
  const db = openDatabase(options.dataPath, {
    create: true,
    onSchemaCopy: (copy, schema) => logger.log("info", "data file copied before migrating it", { copy, fromSchema: schema, toSchema: MIGRATIONS.length }),
  });
  const version = new DataVersion(db);
  // One group commit for everything this process writes: API changes and delivery outcomes share fsyncs.
  let recorder: ServiceMetrics | null = null;
  const writes = new WriteQueue(
    db,
    (error) => logger.log("error", "after-commit effect failed", { error: String((error as Error)?.stack ?? error) }),
    (size) => recorder?.commit(size),
  );
  const deliveries = startDeliveryLoop({
    db,
    writes,
    logger,
    clock,
    onOutcome: (outcome) => recorder?.delivery(outcome),
    ...(options.webhooks ? { tuning: options.webhooks } : {}),
  });
  // After an API write commits: readers see a new generation, and its event's deliveries start at once.
  const backend = sqliteBackend(db, writes, [() => version.touch(), () => deliveries.wake()]);
  const ready = readiness({ db, writes, deliveryLoopRanAt: () => deliveries.lastRanAt() });
  if (options.metrics) recorder = new ServiceMetrics({ db, dataPath: options.dataPath, clock, readiness: ready });
  const fetch = createFetch({
    routes,
    backend,
    findKey: (key) => findKey(db, key),
    logger,
    // In memory, per process (docs/decisions.md#rate-limiting): a restart forgets counts, which only ever lets a key through sooner.
    limiter: new SlidingWindowLimiter({ clock }),
    clock,
    version,
    readiness: ready,
    ...(recorder ? { metrics: { recorder, endpoint: metricsEndpoint(recorder, options.metrics!.token) } } : {}),
    ...(options.accessLog !== undefined ? { accessLog: options.accessLog } : {}),
  });
  let server: ReturnType<typeof startHttpServer>;
  try {
    server = startHttpServer({ fetch, host: options.host, port: options.port, ...(options.tls ? { tls: options.tls } : {}) });
  } catch (error) {
    // Nothing may go on without the server: no delivery from a process that could not listen.
    void deliveries.stop();
    writes.close();
    version.close();
    closeDatabase(db);
    if ((error as { code?: string }).code === "EADDRINUSE") throw new PortInUseError(options.port);
    throw error;
  }
  // Compile the solver soon, so the first optimization does not wait the ~0.1 s it takes, but after
  // the start: the first answers do not wait for it either.
  const warmSolver = setTimeout(() => {
    solverRuntime().then(
      (highs) => logger.log("info", "solver ready", { highs: highs.version.string, wasm: SOLVER_WASM }),
      (error) => logger.log("error", "solver failed to load", { error: String(error) }),
    );
  }, SOLVER_WARM_DELAY_MS);
  warmSolver.unref();
  const stopHeapTrim = startHeapTrim();
  const url = new URL(server.url.href);
  return {
    url,
    port: server.port!,
    fetch,
    db,
    logger,
    async stop() {
      clearTimeout(warmSolver);
      stopHeapTrim();
      await server.stop();
      await deliveries.stop();
      writes.close();
      logger.flush();
      version.close();
      closeDatabase(db);
    },
  };
}
