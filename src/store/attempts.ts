/** Delivery attempts (table `delivery_attempts`), written once over src/store/sqlite/attempts.ts and src/store/pg/attempts.ts. */
import type { AttemptStatements, DeliveryAttempt } from "./delivery-rows.ts";
import { operation, statements } from "./op.ts";
import { pgAttempts } from "./pg/attempts.ts";
import { sqliteAttempts } from "./sqlite/attempts.ts";

export type { DeliveryAttempt } from "./delivery-rows.ts";

const q = statements<AttemptStatements>(sqliteAttempts, pgAttempts);

/**
 * Keep one attempt of a delivery beside its outcome; call in the transaction that records the outcome.
 * @example recordAttempt(db, "dlv_0aQ7vM2xPp9kLr3B", { at, status: 500, error: "HTTP 500", ms: 12 })
 */
export const recordAttempt = operation(function* (deliveryId: string, attempt: Omit<DeliveryAttempt, "number">) {
  yield* q.insertAttempt(deliveryId, attempt);
});
