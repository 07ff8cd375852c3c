import type { Database } from "bun:sqlite";
import type { DeliveryAttempt } from "./delivery-rows.ts";

export type { DeliveryAttempt } from "./delivery-rows.ts";

/**
 * Keep one attempt of a delivery beside its outcome; call in the transaction that records the outcome.
 * @example recordAttempt(db, "dlv_0aQ7vM2xPp9kLr3B", { at, status: 500, error: "HTTP 500", ms: 12 })
 */
export function recordAttempt(db: Database, deliveryId: string, attempt: Omit<DeliveryAttempt, "number">): void {
  db.query(
    `INSERT INTO delivery_attempts (delivery_id, number, at, status, error, ms)
     VALUES (?1, (SELECT coalesce(max(number), 0) + 1 FROM delivery_attempts WHERE delivery_id = ?1), ?2, ?3, ?4, ?5)`,
  ).run(deliveryId, attempt.at, attempt.status, attempt.error, attempt.ms);
}
