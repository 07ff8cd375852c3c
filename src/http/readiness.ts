import type { Database } from "bun:sqlite";
import { isStorageFull } from "../store/db.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import type { WriteQueue } from "../store/write-queue.ts";

/** The delivery loop counts as running if it looked for work this recently (it looks at least every 500 ms). */
const LOOP_STALE_MS = 5_000;
/** Probe results are shared this long, so a flood of unauthenticated /readyz cannot turn into a flood of commits. */
const PROBE_REUSE_MS = 1_000;

export interface ReadinessSources {
  db: Database;
  writes: WriteQueue;
  /** `performance.now()` of the delivery loop's last look for due deliveries. */
  deliveryLoopRanAt: () => number;
}

/**
 * The checks behind `GET /readyz`: the database answers a read, a write can commit, the disk has room
 * (the probe write did not fail for space), the delivery loop ran in the last 5 s. Resolves to the names
 * of the failed ones; docs/decisions.md#faults.
 * @example const failed = await readiness({ db, writes, deliveryLoopRanAt: () => loop.lastRanAt() })() // []
 */
export function readiness(sources: ReadinessSources): () => Promise<string[]> {
  const { db, writes } = sources;
  let probe: { at: number; result: Promise<string | null> } | null = null;

  /** null when a write committed, else the failed check's name. */
  function writeCheck(): Promise<string | null> {
    const now = performance.now();
    if (probe === null || now - probe.at > PROBE_REUSE_MS) {
      const result = writes.run(() => probeWrite(db)).then(
        () => null,
        (error: unknown) => (isStorageFull(error) ? "storage full" : "write commit"),
      );
      probe = { at: now, result };
    }
    return probe.result;
  }

  return async () => {
    const failed: string[] = [];
    let readable = false;
    try {
      readable = databaseAnswers(db);
    } catch {
      readable = false;
    }
    if (!readable) failed.push("database read");
    const write = await writeCheck();
    if (write !== null) failed.push(write);
    if (performance.now() - sources.deliveryLoopRanAt() > LOOP_STALE_MS) failed.push("delivery loop");
    return failed;
  };
}
