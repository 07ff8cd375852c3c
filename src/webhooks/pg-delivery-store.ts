/**
 * The delivery loop's store on PostgreSQL: several instances may share the database, so due deliveries
 * are claimed with a lease and outcomes commit in transactions of their own (docs/decisions.md#serving-from-postgresql).
 */
import type { SQL } from "bun";
import { finishAttempt, nextDueAfter, webhooksWithDueDeliveries } from "../store/deliveries.ts";
import { pruneDelivered } from "../store/delivery-admin.ts";
import * as pg from "../store/pg/deliveries.ts";
import type { DeliveryStore } from "./delivery-store.ts";

/**
 * `instance` names this process in `claimed_by`; `perWebhook` caps the live claims per webhook across
 * instances; `onCommit` is told of each outcome's commit (metrics); `leaseMs` is how long a claim holds.
 * @example startDeliveryLoop({ store: pgDeliveryStore(sql, instanceName(), 4, () => {}), logger })
 */
export function pgDeliveryStore(sql: SQL, instance: string, perWebhook: number, onCommit: () => void, leaseMs = pg.LEASE_MS): DeliveryStore {
  return {
    webhooksWithDue: (nowMs) => webhooksWithDueDeliveries(sql, nowMs),
    take: (webhookId, nowMs, free) => pg.claimDue(sql, instance, webhookId, nowMs, free, perWebhook, leaseMs),
    nextDueAfter: (nowMs) => nextDueAfter(sql, nowMs),
    prune: (before) => pruneDelivered(sql, before),
    finish: async (outcome, disable, committed) => {
      // An outcome commits in a transaction of its own: the update, its attempt and a 410's disable.
      const recorded = await sql.begin((tx) => finishAttempt(tx, outcome, disable));
      onCommit();
      committed();
      return recorded;
    },
    release: () => pg.releaseClaims(sql, instance),
    unclaim: (deliveryIds) => pg.unclaim(sql, instance, deliveryIds),
  };
}
