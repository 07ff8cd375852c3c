/** PostgreSQL's statements for ../attempts.ts. */
import type { AttemptStatements } from "../delivery-rows.ts";
import type { PgStatements } from "../op.ts";

export const pgAttempts: PgStatements<AttemptStatements> = {
  insertAttempt: async (sql, deliveryId, attempt) => {
    await sql`INSERT INTO delivery_attempts (delivery_id, number, at, status, error, ms)
      VALUES (${deliveryId}, (SELECT coalesce(max(number), 0) + 1 FROM delivery_attempts WHERE delivery_id = ${deliveryId}), ${attempt.at}, ${attempt.status}, ${attempt.error}, ${attempt.ms})`;
  },
};
