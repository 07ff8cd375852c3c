/**
 * The one Store port (docs/decisions.md#postgresql): what serve and the admin commands get of where
 * the data lives, whichever backend, opened by `openStore(location)` (./open.ts). A command calls its
 * named operations (src/admin/ops.ts) through `withData` (cli/common.ts); serve opens the same Store
 * with what serving needs beside them (`ServedStore`), and builds its delivery loop, readiness and rate
 * limits on it (src/service.ts). A command does not load the serving half: it cost a `key list` 15% of
 * its CPU time and 3 MiB.
 */
import type { Database } from "bun:sqlite";
import type { AdminStore } from "../admin/ops.ts";
import type { Clock } from "../domain/time.ts";
import type { FindKey } from "../http/auth.ts";
import type { ReadinessSources } from "../http/readiness.ts";
import type { SharedCountStore } from "../store/rate-count-rows.ts";
import type { Logger } from "../log.ts";
import type { Backend } from "../store/backend.ts";
import type { PendingByWebhook } from "../store/deliveries.ts";
import type { DataLocation } from "../store/location.ts";
import type { DeliveryStore } from "../webhooks/delivery-store.ts";

/** The admin commands' operations (each write one transaction), and close. */
export interface Store extends AdminStore {
  readonly kind: DataLocation["kind"];
}

/** The Store opened to serve: the operations, and what serve builds on. */
export interface ServedStore extends Store {
  /** The handlers' reads, and their writes through the group commit (SQLite's WriteQueue, PostgreSQL's PgWriteBatch). */
  backend: Backend;
  findKey: FindKey;
  /** What the delivery loop asks of the database: due deliveries (claimed on PostgreSQL), outcomes. */
  deliveries: DeliveryStore;
  /** Counts for metrics: every webhook's pending deliveries; API writes waiting for the commit in flight (PostgreSQL's group commit). */
  pending: () => PendingByWebhook[] | Promise<PendingByWebhook[]>;
  writesWaiting?: () => number;
  /**
   * Rate-limit counts exchanged with the other instances on the database (PostgreSQL), under the name
   * this process claims deliveries with; null for SQLite's one process.
   */
  sharedCounts: { store: SharedCountStore; instance: string } | null;
  /** The data generation: cached bodies and keys hold while it does. */
  freshness: { current(): number };
  /** What `GET /readyz` asks of the database. */
  readiness: Omit<ReadinessSources, "deliveryLoopRanAt">;
  /** Run `effect` after each committed API write, before its answer goes out (the delivery loop's wake). */
  afterWrite(effect: () => void): void;
  /** The SQLite data file and connection (null on PostgreSQL): for metrics and tests that reach into the file. */
  dataPath: string | null;
  db: Database | null;
}

/** What serving adds to opening: its logger and clock, the metrics' hook, the delivery tuning the store needs. */
export interface Serving {
  logger: Logger;
  clock: Clock;
  /** Told each group commit's size (delivery outcomes on PostgreSQL count as commits of 1). */
  onCommit: (writes: number) => void;
  /** Live claims per webhook across instances (PostgreSQL). */
  perWebhook: number;
  /** SQLite: how long writes must be quiet before the price log is folded (src/service/quiet-fold.ts). */
  foldQuietMs?: number | undefined;
  /** PostgreSQL: the connections this instance keeps open (default: ../store/pg/connect.ts's DEFAULT_DATABASE_CONNECTIONS). */
  connections?: number | undefined;
}

/**
 * `create`: make a missing SQLite file (serve and demo only; a PostgreSQL database must exist, its
 * schema is made or migrated on open). `serve`: open for serving (the group commit, freshness from
 * other processes' commits, the price-log fold, PostgreSQL's deadlines and dead claims).
 */
export interface OpenOptions {
  create: boolean;
  serve?: Serving;
}
