/**
 * `serve` on PostgreSQL (docs/decisions.md#serving-from-postgresql): a pool for reads and writes (each write its own
 * transaction), a listening connection for the data generation, the delivery loop claiming with leases.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { readiness } from "../http/readiness.ts";
import { pgBackend } from "../store/pg/backend.ts";
import { openPostgres } from "../store/pg/connect.ts";
import { PgDataVersion } from "../store/pg/data-version.ts";
import { pendingByWebhook } from "../store/pg/delivery-admin.ts";
import { findKey } from "../store/pg/keys.ts";
import { databaseAnswers, isPgStorageFull, probeWrite } from "../store/pg/readiness.ts";
import { DEFAULT_TUNING, startDeliveryLoop } from "../webhooks/delivery-loop.ts";
import { pgDeliveryStore } from "../webhooks/pg-delivery-store.ts";
import type { ServedStore, StoreDeps } from "./served-store.ts";

/** This process among the instances sharing the database, as `claimed_by` names it. */
const instanceName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/**
 * Connect (migrating under the advisory lock), listen for changes, and start delivering.
 * @example const store = await openPostgresStore("postgres://mill@db/feedbase", { logger, clock, onOutcome, onCommit })
 */
export async function openPostgresStore(url: string, deps: StoreDeps): Promise<ServedStore> {
  const { logger } = deps;
  const sql = await openPostgres(url);
  let version: PgDataVersion;
  try {
    version = await PgDataVersion.start(url, logger);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const perWebhook = deps.webhooks?.perWebhook ?? DEFAULT_TUNING.perWebhook;
  const deliveries = startDeliveryLoop({
    store: pgDeliveryStore(sql, instanceName(), perWebhook, () => deps.onCommit(1)),
    logger,
    clock: deps.clock,
    onOutcome: deps.onOutcome,
    ...(deps.webhooks ? { tuning: deps.webhooks } : {}),
  });
  return {
    // Each write is a commit of its own: the metrics' commit sizes are all 1 on PostgreSQL.
    backend: pgBackend(sql, [() => version.touch(), () => deliveries.wake(), () => deps.onCommit(1)]),
    findKey: (key) => findKey(sql, key),
    version,
    readiness: readiness({
      databaseAnswers: () => databaseAnswers(sql),
      probeWrite: () => probeWrite(sql),
      isStorageFull: isPgStorageFull,
      deliveryLoopRanAt: () => deliveries.lastRanAt(),
    }),
    pending: () => pendingByWebhook(sql),
    dataPath: null,
    db: null,
    async close() {
      await deliveries.stop();
      await version.close();
      await sql.close();
    },
  };
}
