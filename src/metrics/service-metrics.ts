import { statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../domain/time.ts";
import type { PendingByWebhook } from "../store/deliveries.ts";
import { VERSION } from "../version.ts";
import { Counter, gauge, Histogram, type HistogramSeries } from "./registry.ts";

/** Seconds: a cached read answers in tens of microseconds, a durable write in milliseconds. */
const LATENCY_BOUNDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Writes per commit; the write queue takes at most 256 at once. */
const BATCH_BOUNDS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT"]);
/** An attempt's outcome: `retry` failed with attempts left, `unrecorded` could not be written (a full disk). */
export const DELIVERY_OUTCOMES = ["delivered", "retry", "failed", "unrecorded"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
/** The checks of GET /readyz (src/http/readiness.ts), shown even while they pass. */
const READINESS_CHECKS = ["database read", "write commit", "storage full", "delivery loop"];

export interface MetricsSources {
  /** Every webhook's pending deliveries (src/store/deliveries.ts or its PostgreSQL twin). */
  pending: () => PendingByWebhook[] | Promise<PendingByWebhook[]>;
  /** The SQLite data file, for its size and its file system's; null on PostgreSQL, whose files are not ours to watch. */
  dataPath: string | null;
  clock: Clock;
  /** The failed readiness checks now. */
  readiness: () => Promise<string[]>;
  /** API writes waiting for the commit in flight to end (PostgreSQL's group commit); SQLite's never wait. */
  writesWaiting?: (() => number) | undefined;
  /** Bytes each read cache holds now (src/http/app-caches.ts). */
  cacheBytes?: (() => Record<string, number>) | undefined;
  /** Bytes the rate limiter's rings hold now (src/limiter/sliding-window.ts). */
  limiterBytes?: (() => number) | undefined;
}

/**
 * What `GET /metrics` shows (docs/decisions.md#operations): counters kept in memory since start, and
 * gauges read from the data file and the file system when scraped. Labels are route templates,
 * methods, statuses, outcomes and webhook ids: all bounded by the code or the admin's configuration.
 * @example const m = new ServiceMetrics({ pending: () => pendingByWebhook(db), dataPath, clock, readiness }); m.request("/v1/health", "GET", 200, 0.0001); await m.render()
 */
export class ServiceMetrics {
  private readonly started = Date.now() / 1000;
  private readonly requests = new Counter("feedbase_http_requests_total", "HTTP requests answered, by route template (unmatched: no route), method and status.", ["route", "method", "status"]);
  private readonly latency = new Histogram("feedbase_http_request_duration_seconds", "Time from a request's arrival to its response, by route template.", LATENCY_BOUNDS, ["route"]);
  private readonly refusals = new Counter("feedbase_rate_limit_refusals_total", "Requests refused (401) because the key had used its hourly limit.");
  private readonly deliveries = new Counter(
    "feedbase_webhook_deliveries_total",
    "Webhook delivery attempts by outcome: delivered, retry (failed, another attempt scheduled), failed (no attempts left), unrecorded (the outcome could not be written).",
    ["outcome"],
  );
  private readonly batchSizes = new Histogram("feedbase_group_commit_batch_size", "Writes (API changes and delivery outcomes) that shared one durable commit.", BATCH_BOUNDS);
  private readonly batches = this.batchSizes.series();
  /** Each route's series, found without building a key: a request allocates nothing once its series exist. */
  private readonly byRoute = new Map<string, { latency: HistogramSeries; answers: Map<string, Map<number, { value: number }>> }>();

  constructor(private readonly sources: MetricsSources) {
    this.refusals.series();
    for (const outcome of DELIVERY_OUTCOMES) this.deliveries.series([outcome]);
  }

  /** One answered request; `route` is the route's template, or null when no route matched. */
  request(route: string | null, method: string, status: number, seconds: number): void {
    const template = route ?? "unmatched";
    let r = this.byRoute.get(template);
    if (!r) this.byRoute.set(template, (r = { latency: this.latency.series([template]), answers: new Map() }));
    const m = METHODS.has(method) ? method : "other";
    let byStatus = r.answers.get(m);
    if (!byStatus) r.answers.set(m, (byStatus = new Map()));
    let answered = byStatus.get(status);
    if (!answered) byStatus.set(status, (answered = this.requests.series([template, m, String(status)])));
    answered.value++;
    r.latency.observe(seconds);
  }

  rateLimited(): void {
    this.refusals.inc();
  }

  delivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc([outcome]);
  }

  commit(writes: number): void {
    this.batches.observe(writes);
  }

  /** The whole exposition; gauges are read now. */
  async render(): Promise<string> {
    const { dataPath, clock } = this.sources;
    const now = clock();
    const pending = await this.sources.pending();
    const failed = await this.sources.readiness();
    return [
      this.requests.render(),
      this.latency.render(),
      this.refusals.render(),
      this.deliveries.render(),
      this.batchSizes.render(),
      gauge("feedbase_webhook_pending_deliveries", "Deliveries waiting to be sent, by webhook.", ["webhook"], pending.map((p) => [[p.webhookId], p.pending])),
      gauge(
        "feedbase_webhook_oldest_pending_age_seconds",
        "Age of the oldest delivery still waiting, by webhook (0 when none waits).",
        ["webhook"],
        pending.map((p) => [[p.webhookId], p.oldest === null ? 0 : Math.max(0, (now - Date.parse(p.oldest)) / 1000)]),
      ),
      dataPath === null ? "" : fileGauges(dataPath),
      this.sources.cacheBytes
        ? gauge("feedbase_read_cache_bytes", "Bytes a read cache holds (bodies, answered requests, keys), each bounded (docs/operations.md).", ["cache"], Object.entries(this.sources.cacheBytes()).map(([cache, bytes]) => [[cache], bytes]))
        : "",
      this.sources.limiterBytes
        ? gauge("feedbase_rate_limiter_bytes", "Bytes the rate limiter holds: each key's accepted timestamps in the window (8 bytes each, at most its limit).", [], [[[], this.sources.limiterBytes()]])
        : "",
      this.sources.writesWaiting ? gauge("feedbase_writes_waiting", "API writes waiting for the commit in flight to end.", [], [[[], this.sources.writesWaiting()]]) : "",
      gauge(
        "feedbase_readiness_check_failed",
        "1 while a check of GET /readyz fails (storage full: a write failed for lack of space).",
        ["check"],
        [...new Set([...READINESS_CHECKS, ...failed])].map((check) => [[check], failed.includes(check) ? 1 : 0]),
      ),
      gauge("feedbase_build_info", "The running feedbase's version and Bun runtime; always 1.", ["version", "bun"], [[[VERSION, Bun.version], 1]]),
      gauge("process_start_time_seconds", "Start time of the process since the Unix epoch.", [], [[[], this.started]]),
      gauge("process_resident_memory_bytes", "Resident memory of the process.", [], [[[], process.memoryUsage.rss()]]),
    ].join("");
  }
}

/** The data file's and its file system's sizes (SQLite only). */
function fileGauges(dataPath: string): string {
  const fs = statfsSync(dirname(dataPath));
  return [
    gauge("feedbase_data_file_bytes", "Size of the data file.", [], [[[], sizeOf(dataPath)]]),
    gauge("feedbase_wal_file_bytes", "Size of the data file's write-ahead log (-wal).", [], [[[], sizeOf(`${dataPath}-wal`)]]),
    gauge("feedbase_storage_free_bytes", "Free space for the service user on the data file's file system.", [], [[[], fs.bavail * fs.bsize]]),
    gauge("feedbase_storage_size_bytes", "Size of the data file's file system.", [], [[[], fs.blocks * fs.bsize]]),
  ].join("");
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // no -wal between checkpoints of a closed file, or a file not made yet
  }
}
