/** The delivery loop counts as running if it looked for work this recently (it looks at least every 500 ms). */
const LOOP_STALE_MS = 5_000;
/** Probe results are shared this long, so a flood of unauthenticated /readyz cannot turn into a flood of commits. */
const PROBE_REUSE_MS = 1_000;

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
  let probe: { at: number; result: Promise<string | null> } | null = null;

  /** null when a write committed, else the failed check's name. */
  function writeCheck(): Promise<string | null> {
    const now = performance.now();
    if (probe === null || now - probe.at > PROBE_REUSE_MS) {
      const result = sources.probeWrite().then(
        () => null,
        (error: unknown) => (sources.isStorageFull(error) ? "storage full" : "write commit"),
      );
      probe = { at: now, result };
    }
    return probe.result;
  }

  return async () => {
    const failed: string[] = [];
    let readable = false;
    try {
      readable = await sources.databaseAnswers();
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
