/**
 * The Store on PostgreSQL (docs/decisions.md#serving-from-postgresql): for a command, a small pool;
 * to serve, a pool for reads and writes (API writes through the group commit, many to a transaction),
 * a listening connection for the data generation, and delivery claims with leases.
 */
import type { SQL } from "bun";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { pgAdmin } from "../admin/pg.ts";
import { pgSharedCounts } from "../store/pg/rate-counts.ts";
import { pgBackend } from "../store/backend.ts";
import { DEFAULT_DATABASE_CONNECTIONS, openPostgres } from "../store/pg/connect.ts";
import { withDeadline, withDeadlines } from "../store/deadline.ts";
import { PgDataVersion } from "../store/pg/data-version.ts";
import { PgWriteBatch } from "../store/pg/write-batch.ts";
import { pendingByWebhook } from "../store/delivery-admin.ts";
import { releaseDeadClaims } from "../store/pg/deliveries.ts";
import { findKey } from "../store/keys.ts";
import { isPgStorageFull } from "../store/pg/readiness.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import { pgDeliveryStore } from "../webhooks/pg-delivery-store.ts";
import type { ServedStore, Serving, Store } from "./store.ts";

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

/** Serving: listen for every instance's commits, and free the claims a stopped instance of this host left. */
async function startServing(sql: SQL, url: string, serve: Serving): Promise<PgDataVersion> {
  const version = await PgDataVersion.start(url, {
    lost: (database) => serve.logger.log("warn", "lost the PostgreSQL notification connection; serving uncached until it is back", { database }),
    back: () => serve.logger.log("info", "PostgreSQL notifications are back; caching again", {}),
  });
  const freed = await releaseDeadClaims(sql, hostname(), pidAlive).catch(() => 0);
  if (freed > 0) serve.logger.log("info", "released the webhook claims of a stopped instance on this host", { deliveries: freed });
  return version;
}

/**
 * Connect (migrating under the advisory lock) for one command, on one connection: a command runs one
 * statement at a time, and Bun.sql opens a pool's every connection at its first query (each a server
 * process: docs/decisions.md#postgresql).
 * @example const store = await openPostgresStore("postgres://mill@db/feedbase")
 */
export async function openPostgresStore(url: string): Promise<Store> {
  return { ...pgAdmin(await openPostgres(url, { max: 1 })), kind: "postgres" };
}

/**
 * Connect (migrating under the advisory lock) to serve: listen for changes, free dead claims.
 * @example const store = await servePostgres("postgres://mill@db/feedbase", { logger, clock, onCommit, perWebhook: 4 })
 */
export async function servePostgres(url: string, serve: Serving): Promise<ServedStore> {
  const instance = instanceName();
  const sql = await openPostgres(url, { max: serve.connections ?? DEFAULT_DATABASE_CONNECTIONS, timeouts: TIMEOUTS, applicationName: instance });
  let version: PgDataVersion;
  try {
    version = await startServing(sql, url, serve);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const afterWrite = [() => version.touch()];
  const writes = new PgWriteBatch(sql, {
    afterCommit: afterWrite,
    onEffectError: (error) => serve.logger.log("error", "after-commit effect failed", { error: String((error as Error)?.stack ?? error) }),
    onCommit: serve.onCommit,
  });
  const admin = pgAdmin(sql);
  return {
    ...admin,
    kind: "postgres",
    // Every call a request makes gets its 503 in time.
    backend: withDeadlines(pgBackend(sql, writes), REQUEST_DEADLINE_MS),
    findKey: (key) => withDeadline(findKey(sql, key), REQUEST_DEADLINE_MS),
    // Delivery outcomes commit on their own (claims are per instance); the metrics count them as commits of 1.
    deliveries: pgDeliveryStore(sql, instance, serve.perWebhook, () => serve.onCommit(1), leaseForTests()),
    pending: () => pendingByWebhook(sql),
    writesWaiting: () => writes.waiting,
    sharedCounts: { store: pgSharedCounts(sql), instance },
    freshness: version,
    readiness: { databaseAnswers: () => databaseAnswers(sql), probeWrite: () => probeWrite(sql), isStorageFull: isPgStorageFull },
    afterWrite: (effect) => afterWrite.push(effect),
    dataPath: null,
    db: null,
    async close() {
      await writes.close();
      await version.close();
      await admin.close();
    },
  };
}
