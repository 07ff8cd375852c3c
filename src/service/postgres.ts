/**
 * `serve` on PostgreSQL (docs/decisions.md#serving-from-postgresql): a pool for reads and writes (API writes
 * through the group commit, many to a transaction), a listening connection for the data generation, the
 * delivery loop claiming with leases.
 */
import type { SQL } from "bun";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { readiness } from "../http/readiness.ts";
import { SharedCounts } from "../limiter/shared-counts.ts";
import { pgSharedCounts } from "../store/pg/rate-counts.ts";
import { pgBackend } from "../store/pg/backend.ts";
import { openPostgres } from "../store/pg/connect.ts";
import { withDeadline, withDeadlines } from "../store/deadline.ts";
import { PgDataVersion } from "../store/pg/data-version.ts";
import { PgWriteBatch } from "../store/pg/write-batch.ts";
import { pendingByWebhook } from "../store/delivery-admin.ts";
import { releaseDeadClaims } from "../store/pg/deliveries.ts";
import { findKey } from "../store/keys.ts";
import { isPgStorageFull } from "../store/pg/readiness.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import { DEFAULT_TUNING, startDeliveryLoop } from "../webhooks/delivery-loop.ts";
import { pgDeliveryStore } from "../webhooks/pg-delivery-store.ts";
import type { ServedStore, StoreDeps } from "./served-store.ts";

/**
 * FEEDBASE_TEST_LEASE_MS=<ms> shortens the delivery lease (60 s), so a test sees a killed instance's
 * claims taken over without waiting a minute; like FEEDBASE_TEST_MAX_PAGES, for tests only.
 */
function leaseForTests(): number | undefined {
  const ms = process.env.FEEDBASE_TEST_LEASE_MS;
  if (ms === undefined || ms === "") return undefined;
  if (!/^\d+$/.test(ms)) throw new Error(`FEEDBASE_TEST_LEASE_MS must be a whole number of milliseconds, not ${ms}`);
  return Number(ms);
}

/** Whether a process of this host still runs (signal 0 checks without sending; EPERM: it runs as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * serve's bounds on the database (docs/decisions.md#database-faults): a connection within 3 s; a
 * statement within 5 s, of which at most 2 s waiting for a lock; and every call a request makes
 * answered within 6 s, so a stalled server (no cancellation comes back) still gets a 503 out before
 * Bun closes an idle connection at 10 s.
 */
const TIMEOUTS = { connectSeconds: 3, statementMs: 5_000, lockMs: 2_000 };
const REQUEST_DEADLINE_MS = 6_000;

/** This process among the instances sharing the database, as `claimed_by` names it. */
const instanceName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** Start exchanging rate-limit counts with the other instances; a failed exchange is logged and retried. */
async function startSharedCounts(sql: SQL, instance: string, deps: StoreDeps): Promise<SharedCounts> {
  const counts = new SharedCounts(pgSharedCounts(sql), {
    instance,
    clock: deps.clock,
    onError: (error) => deps.logger.log("error", "rate-limit counts could not be exchanged: limits go on with what was last heard", { error: String(error) }),
    onRecovered: () => deps.logger.log("info", "rate-limit counts exchanged again"),
  });
  await counts.start();
  return counts;
}

/**
 * Connect (migrating under the advisory lock), listen for changes, and start delivering.
 * @example const store = await openPostgresStore("postgres://mill@db/feedbase", { logger, clock, onOutcome, onCommit })
 */
export async function openPostgresStore(url: string, deps: StoreDeps): Promise<ServedStore> {
  const { logger } = deps;
  const instance = instanceName();
  const sql = await openPostgres(url, { timeouts: TIMEOUTS, applicationName: instance });
  let version: PgDataVersion;
  try {
    version = await PgDataVersion.start(url, logger);
  } catch (error) {
    await sql.close();
    throw error;
  }
  let counts: SharedCounts;
  try {
    counts = await startSharedCounts(sql, instance, deps);
  } catch (error) {
    await version.close();
    await sql.close();
    throw error;
  }
  const freed = await releaseDeadClaims(sql, hostname(), pidAlive).catch(() => 0);
  if (freed > 0) logger.log("info", "released the webhook claims of a stopped instance on this host", { deliveries: freed });
  const perWebhook = deps.webhooks?.perWebhook ?? DEFAULT_TUNING.perWebhook;
  const deliveries = startDeliveryLoop({
    store: pgDeliveryStore(sql, instance, perWebhook, () => deps.onCommit(1), leaseForTests()),
    logger,
    clock: deps.clock,
    onOutcome: deps.onOutcome,
    ...(deps.webhooks ? { tuning: deps.webhooks } : {}),
  });
  // Delivery outcomes commit on their own (claims are per instance); the metrics count them as commits of 1.
  const writes = new PgWriteBatch(sql, {
    afterCommit: [() => version.touch(), () => deliveries.wake()],
    onEffectError: (error) => logger.log("error", "after-commit effect failed", { error: String((error as Error)?.stack ?? error) }),
    onCommit: deps.onCommit,
  });
  return {
    backend: withDeadlines(pgBackend(sql, writes), REQUEST_DEADLINE_MS),
    writesWaiting: () => writes.waiting,
    findKey: (key) => withDeadline(findKey(sql, key), REQUEST_DEADLINE_MS),
    version,
    readiness: readiness({
      databaseAnswers: () => databaseAnswers(sql),
      probeWrite: () => probeWrite(sql),
      isStorageFull: isPgStorageFull,
      deliveryLoopRanAt: () => deliveries.lastRanAt(),
    }),
    pending: () => pendingByWebhook(sql),
    sharedLimits: counts,
    dataPath: null,
    db: null,
    async close() {
      await writes.close();
      await deliveries.stop();
      await counts.stop().catch((error: unknown) => logger.log("error", "rate-limit counts could not be written at stop", { error: String(error) }));
      await version.close();
      await sql.close();
    },
  };
}
