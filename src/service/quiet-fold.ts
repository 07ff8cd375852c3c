/**
 * Folding the price log when writes go quiet (docs/decisions.md#price-history-and-formula-costs): a log
 * near its fold size makes history reads up to twice as slow, and a server between bursts of writes has
 * the time to move it into the indexed history. The fold is one write of the group commit, so it never
 * runs beside an API write, and a write queued with it is simply recorded after it (into the emptied
 * log) or before it (and folded along). SQLite only: PostgreSQL writes its history straight into the index.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../domain/time.ts";
import { foldPriceLog, priceLogHasEntries } from "../store/price-history.ts";
import type { WriteQueue } from "../store/write-queue.ts";

/** How long no write must have committed before the log is folded. */
export const FOLD_QUIET_MS = 2_000;

/** Run `work` after `ms`; returns its cancel. The default never keeps the process alive. */
export type Timer = (work: () => void, ms: number) => () => void;

const unrefTimer: Timer = (work, ms) => {
  const timer = setTimeout(work, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface QuietFold {
  /** Told after every commit: the quiet period starts again. */
  wrote(): void;
  stop(): void;
}

/**
 * One timer at most, armed by the first commit after a quiet spell; when it fires early (writes went
 * on) it is armed again for the rest of the period, so a stream of writes costs one clock read each.
 * @example const fold = foldWhenQuiet(db, writes, { clock, onError }); // then fold.wrote() after each commit
 */
export function foldWhenQuiet(
  db: Database,
  writes: WriteQueue,
  options: { clock: Clock; onError: (error: unknown) => void; quietMs?: number; timer?: Timer },
): QuietFold {
  const { clock, onError, quietMs = FOLD_QUIET_MS, timer = unrefTimer } = options;
  let lastWrite = 0;
  let cancel: (() => void) | null = null;
  let stopped = false;
  const check = () => {
    cancel = null;
    if (stopped) return;
    const quiet = clock() - lastWrite;
    // A clock set back counts as a write now, so the wait never exceeds one period.
    if (quiet < quietMs) {
      cancel = timer(check, Math.min(quietMs, quietMs - quiet));
      return;
    }
    if (!priceLogHasEntries(db)) return;
    writes.run(() => foldPriceLog(db)).catch(onError);
  };
  return {
    wrote() {
      lastWrite = clock();
      if (cancel === null && !stopped) cancel = timer(check, quietMs);
    },
    stop() {
      stopped = true;
      cancel?.();
      cancel = null;
    },
  };
}
