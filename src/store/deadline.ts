/**
 * A database that stops answering (a stalled server, a lost network) must not hold a request past the
 * HTTP server's idle close: every call a handler makes to it is given a deadline, and a call that
 * misses it is refused with {@link DatabaseTimeout}, which the HTTP layer answers as a 503 with
 * Retry-After (src/http/errors.ts). docs/decisions.md#database-faults.
 */
import type { Backend } from "./backend.ts";

/** The database did not answer in time; the call's work may still complete (a write may be stored). */
export class DatabaseTimeout extends Error {
  constructor(readonly ms: number) {
    super(`The database did not answer within ${ms} ms`);
  }
}

/**
 * `promise`, or a DatabaseTimeout once `ms` milliseconds pass first.
 * @example const rows = await withDeadline(sql`SELECT 1`, 6_000)
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeout(ms)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Each function of `table` with its promises given the deadline (synchronous answers pass as they are). */
function bounded<T extends object>(table: T, ms: number): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(table)) {
    out[name] = (...args: unknown[]) => {
      const result = (fn as (...a: unknown[]) => unknown)(...args);
      return result instanceof Promise ? withDeadline(result, ms) : result;
    };
  }
  return out as T;
}

/**
 * The backend with a deadline on every read and write.
 * @example const backend = withDeadlines(pgBackend(sql, writes), DATABASE_DEADLINE_MS)
 */
export function withDeadlines(backend: Backend, ms: number): Backend {
  return { read: bounded(backend.read, ms), write: bounded(backend.write, ms), batchedWrite: bounded(backend.batchedWrite, ms) };
}
