/** The Store on an SQLite file, served: one connection, its group commit, PRAGMA data_version, unclaimed deliveries. */
import { sqliteAdmin } from "../admin/ops.ts";
import { foldWhenQuiet } from "../service/quiet-fold.ts";
import { sqliteBackend } from "../store/backend.ts";
import { DataVersion } from "../store/data-version.ts";
import { closeDatabase, isStorageFull, openDatabase } from "../store/db.ts";
import { pendingByWebhook } from "../store/delivery-admin.ts";
import { findKey } from "../store/keys.ts";
import { SCHEMA_VERSION } from "../store/migrations.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import { WriteQueue } from "../store/write-queue.ts";
import { sqliteDeliveryStore } from "../webhooks/delivery-store.ts";
import type { ServedStore, Serving } from "./store.ts";

/**
 * Open (or, with `create`, make) the data file to serve it.
 * @example const store = serveSqlite("/var/lib/feedbase/feedbase.db", true, { logger, clock, onCommit, perWebhook: 4 })
 */
export function serveSqlite(dataPath: string, create: boolean, serve: Serving): ServedStore {
  const db = openDatabase(dataPath, {
    create,
    onSchemaCopy: (copy, schema) => serve.logger.log("info", "data file copied before migrating it", { copy, fromSchema: schema, toSchema: SCHEMA_VERSION }),
  });
  // Another process's commit (an admin command) shows within a millisecond (docs/decisions.md#storage-and-operations).
  const version = new DataVersion(db, dataPath, 1);
  // One group commit for everything this process writes: API changes and delivery outcomes share fsyncs.
  const writes = new WriteQueue(
    db,
    (error) => serve.logger.log("error", "after-commit effect failed", { error: String((error as Error)?.stack ?? error) }),
    (size) => {
      serve.onCommit(size);
      fold.wrote();
    },
  );
  const fold = foldWhenQuiet(db, writes, {
    clock: serve.clock,
    onError: (error) => serve.logger.log("error", "price log fold failed", { error: String(error) }),
    ...(serve.foldQuietMs !== undefined ? { quietMs: serve.foldQuietMs } : {}),
  });
  // After an API write commits: readers see a new generation, then whatever was added (the delivery loop's wake).
  const afterWrite = [() => version.touch()];
  const admin = sqliteAdmin(db);
  return {
    ...admin,
    kind: "sqlite",
    backend: sqliteBackend(db, writes, afterWrite),
    findKey: (key) => findKey(db, key),
    deliveries: sqliteDeliveryStore(db, writes),
    pending: () => pendingByWebhook(db),
    sharedCounts: null,
    freshness: version,
    readiness: { databaseAnswers: () => databaseAnswers(db), probeWrite: () => writes.run(() => probeWrite(db)), isStorageFull },
    afterWrite: (effect) => afterWrite.push(effect),
    dataPath,
    db,
    async close() {
      fold.stop();
      writes.close();
      version.close();
      await admin.close();
      version.release();
    },
  };
}
