/** SQLite's statements for src/store/attempts.ts. */
import type { AttemptStatements } from "../delivery-rows.ts";
import type { SqliteStatements } from "../op.ts";

export const sqliteAttempts: SqliteStatements<AttemptStatements> = {
  insertAttempt: (db, deliveryId, attempt) => {
    db.query(
      `INSERT INTO delivery_attempts (delivery_id, number, at, status, error, ms)
       VALUES (?1, (SELECT coalesce(max(number), 0) + 1 FROM delivery_attempts WHERE delivery_id = ?1), ?2, ?3, ?4, ?5)`,
    ).run(deliveryId, attempt.at, attempt.status, attempt.error, attempt.ms);
  },
};
