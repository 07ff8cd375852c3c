/** `serve` on an SQLite file: one connection, its group commit, PRAGMA data_version, the unclaimed delivery loop. */
import { readiness } from "../http/readiness.ts";
import { sqliteBackend } from "../store/backend.ts";
import { DataVersion } from "../store/data-version.ts";
import { closeDatabase, isStorageFull, openDatabase } from "../store/db.ts";
import { pendingByWebhook } from "../store/delivery-admin.ts";
import { findKey } from "../store/keys.ts";
import { SCHEMA_VERSION } from "../store/migrations.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import { WriteQueue } from "../store/write-queue.ts";
import { startDeliveryLoop } from "../webhooks/delivery-loop.ts";
import { foldWhenQuiet } from "./quiet-fold.ts";
import { sqliteDeliveryStore } from "../webhooks/delivery-store.ts";
import type { ServedStore, StoreDeps } from "./served-store.ts";

/**
 * Open (or create) the data file and start delivering from it.
 * @example const store = openSqliteStore("/var/lib/feedbase/feedbase.db", { logger, clock, onOutcome, onCommit })
 */
export function openSqliteStore(dataPath: string, deps: StoreDeps): ServedStore {
  const { logger } = deps;
  const db = openDatabase(dataPath, {
    create: true,
    onSchemaCopy: (copy, schema) => logger.log("info", "data file copied before migrating it", { copy, fromSchema: schema, toSchema: SCHEMA_VERSION }),
  });
  // Another process's commit (an admin command) shows within a millisecond (docs/decisions.md#storage-and-operations).
  const version = new DataVersion(db, dataPath, 1);
  // One group commit for everything this process writes: API changes and delivery outcomes share fsyncs.
  const writes = new WriteQueue(
    db,
    (error) => logger.log("error", "after-commit effect failed", { error: String((error as Error)?.stack ?? error) }),
    (size) => {
      deps.onCommit(size);
      fold.wrote();
    },
  );
  const fold = foldWhenQuiet(db, writes, {
    clock: deps.clock,
    onError: (error) => logger.log("error", "price log fold failed", { error: String(error) }),
    ...(deps.foldQuietMs !== undefined ? { quietMs: deps.foldQuietMs } : {}),
  });
  const deliveries = startDeliveryLoop({
    store: sqliteDeliveryStore(db, writes),
    logger,
    clock: deps.clock,
    onOutcome: deps.onOutcome,
    ...(deps.webhooks ? { tuning: deps.webhooks } : {}),
  });
  return {
    // After an API write commits: readers see a new generation, and its event's deliveries start at once.
    backend: sqliteBackend(db, writes, [() => version.touch(), () => deliveries.wake()]),
    findKey: (key) => findKey(db, key),
    version,
    readiness: readiness({
      databaseAnswers: () => databaseAnswers(db),
      probeWrite: () => writes.run(() => probeWrite(db)),
      isStorageFull,
      deliveryLoopRanAt: () => deliveries.lastRanAt(),
    }),
    pending: () => pendingByWebhook(db),
    dataPath,
    db,
    async close() {
      await deliveries.stop();
      fold.stop();
      writes.close();
      version.close();
      closeDatabase(db);
      version.release();
    },
  };
}
