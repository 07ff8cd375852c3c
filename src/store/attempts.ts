import type { Database } from "bun:sqlite";

/** One attempt to deliver, as `webhook deliveries show` lists it. */
export interface DeliveryAttempt {
  /** 1, 2, … over the delivery's whole life: an admin retry continues the count. */
  number: number;
  /** When the attempt started (ISO). */
  at: string;
  /** The receiver's status code, or null when no answer came (`error` says why). */
  status: number | null;
  error: string | null;
  ms: number;
}

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

/**
 * Every attempt of a delivery, first first.
 * @example listAttempts(db, "dlv_0aQ7vM2xPp9kLr3B") // [{ number: 1, at, status: 500, error: "HTTP 500", ms: 12 }, …]
 */
export function listAttempts(db: Database, deliveryId: string): DeliveryAttempt[] {
  return db.query("SELECT number, at, status, error, ms FROM delivery_attempts WHERE delivery_id = ? ORDER BY number").all(deliveryId) as DeliveryAttempt[];
}
