import { withDeadline } from "../store/deadline.ts";

/** The delivery loop counts as running if it looked for work this recently (it looks at least every 500 ms). */
const LOOP_STALE_MS = 5_000;
/** Probe results are shared this long, so a flood of unauthenticated /readyz cannot turn into a flood of commits. */
const PROBE_REUSE_MS = 1_000;
/**
 * /readyz answers within this: a check still waiting then (a stalled or locked database) counts as
 * failed. Below the 2–5 s a load balancer's health check usually allows.
 */
export const READY_TIMEOUT_MS = 1_500;

/** What the checks ask of the backend (src/store/readiness.ts, src/store/pg/readiness.ts). */
export interface ReadinessSources {
  /** A read the server depends on answers; false or a throw fails "database read". */
  databaseAnswers: () => boolean | Promise<boolean>;
  /** A write that commits like an API write; resolves once durable. */
  probeWrite: () => Promise<void>;
  /** Whether the probe failed for lack of space (SQLITE_FULL, SQLSTATE 53100). */
  isStorageFull: (error: unknown) => boolean;
  /** `performance.now()` of the delivery loop's last look for due deliveries. */
  deliveryLoopRanAt: () => number;
}

/**
 * The checks behind `GET /readyz`: the database answers a read, a write can commit, the disk has room
 * (the probe write did not fail for space), the delivery loop ran in the last 5 s. Resolves to the names
 * of the failed ones; docs/decisions.md#faults.
 * @example const failed = await readiness({ databaseAnswers, probeWrite, isStorageFull, deliveryLoopRanAt: () => loop.lastRanAt() })() // []
 */
export function readiness(sources: ReadinessSources): () => Promise<string[]> {
  const read = shared(async () => ((await sources.databaseAnswers()) ? null : "database read"), () => "database read");
  const write = shared(
    async () => {
      await sources.probeWrite();
      return null;
    },
    (error) => (sources.isStorageFull(error) ? "storage full" : "write commit"),
  );

  return async () => {
    const [readFailed, writeFailed] = await Promise.all([
      withDeadline(read(), READY_TIMEOUT_MS).catch(() => "database read"),
      withDeadline(write(), READY_TIMEOUT_MS).catch(() => "write commit"),
    ]);
    const failed = [readFailed, writeFailed].filter((name): name is string => name !== null);
    if (performance.now() - sources.deliveryLoopRanAt() > LOOP_STALE_MS) failed.push("delivery loop");
    return failed;
  };
}

/**
 * A check whose result (null when it passed, else the failed check's name) is shared for
 * PROBE_REUSE_MS, and never run twice at once: on a stalled database each /readyz must not add one
 * more waiting probe (each would hold a connection of the pool).
 */
function shared(check: () => Promise<string | null>, failure: (error: unknown) => string): () => Promise<string | null> {
  let last: { at: number; done: boolean; result: Promise<string | null> } | null = null;
  return () => {
    const now = performance.now();
    if (last === null || (last.done && now - last.at > PROBE_REUSE_MS)) {
      const entry: { at: number; done: boolean; result: Promise<string | null> } = { at: now, done: false, result: Promise.resolve(null) };
      entry.result = Promise.resolve()
        .then(check)
        .catch(failure)
        .finally(() => {
          entry.done = true;
        });
      last = entry;
    }
    return last.result;
  };
}
