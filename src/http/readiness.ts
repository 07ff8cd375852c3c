import type { Database } from "bun:sqlite";
import { isStorageFull } from "../store/db.ts";
import { databaseAnswers, probeWrite } from "../store/readiness.ts";
import type { WriteQueue } from "../store/write-queue.ts";
import { errorBody, jsonReply, type Reply } from "./envelope.ts";

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
 * `GET /readyz` for load balancers and supervisors: 200 `ready` when the database answers a read, a write
 * can commit, the delivery loop has run in the last 5 s and the disk has room; otherwise 503 with the
 * error object and `failed`, the list of failed checks. See docs/decisions.md (Faults).
 * @example const ready = readiness({ db, writes, deliveryLoopRanAt: () => loop.lastRanAt() }); const reply = await ready()
 */
export function readiness(sources: ReadinessSources): () => Promise<Reply> {
  const { db, writes } = sources;
  let probe: { at: number; result: Promise<string | null> } | null = null;

  /** null when a write committed, else the failed check's name. */
  function writeCheck(): Promise<string | null> {
    const now = performance.now();
    if (probe === null || now - probe.at > PROBE_REUSE_MS) {
      const result = writes.run(() => probeWrite(db), false).then(
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
    if (failed.length === 0) return { status: 200, body: "ready", headers: { "Content-Type": "text/plain" } };
    return jsonReply(503, errorBody(`Not ready: ${failed.join(", ")}`, { failed }));
  };
}
