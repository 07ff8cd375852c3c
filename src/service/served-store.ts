/**
 * What `serve` needs from where the data lives, whichever backend: the handlers' reads and writes, key
 * lookup, the data generation, the readiness checks, the delivery loop running on it, the metrics'
 * reads. ./sqlite.ts and ./postgres.ts make one; src/service.ts builds the server on it.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../domain/time.ts";
import type { FindKey } from "../http/auth.ts";
import type { SharedWindow } from "../limiter/sliding-window.ts";
import type { Logger } from "../log.ts";
import type { DeliveryOutcome } from "../metrics/service-metrics.ts";
import type { Backend } from "../store/backend.ts";
import type { PendingByWebhook } from "../store/deliveries.ts";
import type { DeliveryTuning } from "../webhooks/delivery-loop.ts";

export interface ServedStore {
  backend: Backend;
  findKey: FindKey;
  version: { current(): number };
  readiness: () => Promise<string[]>;
  /** Every webhook's pending deliveries, for metrics. */
  pending: () => PendingByWebhook[] | Promise<PendingByWebhook[]>;
  /** What other instances on the same database accepted per key (PostgreSQL); none for SQLite's one process. */
  sharedLimits?: SharedWindow;
  /** API writes waiting for the commit in flight (PostgreSQL's group commit), for metrics. */
  writesWaiting?: () => number;
  /** The SQLite data file (null on PostgreSQL). */
  dataPath: string | null;
  /** The SQLite connection (null on PostgreSQL): for tests that reach into the file. */
  db: Database | null;
  /** Stop delivering (attempts in flight get their grace), then close the database. */
  close(): Promise<void>;
}

/** What both openers take: the service's logger and clock, the webhook tuning, and metrics' hooks. */
export interface StoreDeps {
  logger: Logger;
  clock: Clock;
  webhooks?: Partial<DeliveryTuning> | undefined;
  /** Told each delivery outcome and (SQLite) each group commit's size, once metrics exist. */
  onOutcome: (outcome: DeliveryOutcome) => void;
  onCommit: (writes: number) => void;
  /** SQLite: how long writes must be quiet before the price log is folded (src/service/quiet-fold.ts). */
  foldQuietMs?: number | undefined;
}
