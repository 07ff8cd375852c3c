/**
 * What the rate limiter's shared counts (src/limiter/shared-counts.ts) ask of the database, with their
 * rows: PostgreSQL's statements are src/store/pg/rate-counts.ts; SQLite's one process shares nothing.
 */

/** A key's accepted requests in one second. */
export interface CountRow {
  keyId: string;
  second: number;
  count: number;
}

/** Where instances exchange counts. */
export interface SharedCountStore {
  /** Add this instance's new counts. */
  add(instance: string, rows: CountRow[]): Promise<void>;
  /** Other instances' rows from `fromSecond` on, changed since `since` (null: all); `next` is the next call's `since`. */
  changes(instance: string, fromSecond: number, since: string | null): Promise<{ counts: (CountRow & { instance: string })[]; next: string }>;
  /** Forget seconds before `beforeSecond`, every instance's. */
  prune(beforeSecond: number): Promise<void>;
}
