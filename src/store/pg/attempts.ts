/** PostgreSQL's twin of recordAttempt in ../attempts.ts (listing attempts is the admin store's). */
import type { SQL } from "bun";
import type { DeliveryAttempt } from "../delivery-rows.ts";

/** Keep one attempt beside its outcome, in the outcome's transaction. @example await recordAttempt(tx, "dlv_0aQ7vM2xPp9kLr3B", { at, status: 500, error: "HTTP 500", ms: 12 }) */
export async function recordAttempt(sql: SQL, deliveryId: string, attempt: Omit<DeliveryAttempt, "number">): Promise<void> {
  await sql`INSERT INTO delivery_attempts (delivery_id, number, at, status, error, ms)
    VALUES (${deliveryId}, (SELECT coalesce(max(number), 0) + 1 FROM delivery_attempts WHERE delivery_id = ${deliveryId}), ${attempt.at}, ${attempt.status}, ${attempt.error}, ${attempt.ms})`;
}
