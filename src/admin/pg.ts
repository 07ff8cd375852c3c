/**
 * The admin store on PostgreSQL: the one table of ./ops.ts bound to a pool. Reads run on the pool; each
 * write is one transaction ending with the notification running servers listen for (`writeTransaction`);
 * whole operations (imports, the demo) open their own.
 */
import type { SQL } from "bun";
import { operations } from "../store/bind.ts";
import { writeTransaction } from "../store/pg/transaction.ts";
import { ADMIN_OPERATIONS, withWhole, type AdminStore } from "./ops.ts";

/**
 * The admin store over a pool on `sql`.
 * @example const store = pgAdmin(await openPostgres(url, { max: 1 })); await store.listKeys()
 */
export function pgAdmin(sql: SQL): AdminStore {
  const { reads, writes } = ADMIN_OPERATIONS;
  const bound = {
    ...operations<SQL>(reads, (fn) => (...args) => fn(sql, ...args)),
    ...operations<SQL>(writes, (fn) => (...args) => writeTransaction(sql, (tx) => fn(tx, ...args) as Promise<unknown>)),
  };
  return withWhole(sql, bound, () => sql.close());
}
