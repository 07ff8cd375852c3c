const MiB = 1024 * 1024;
/** How far the slack may grow while collections find little garbage of their own heap. */
const MAX_SLACK_FACTOR = 16;

/**
 * Keep the resident size near the working set under load. JavaScriptCore collects lazily: a server
 * answering tens of thousands of requests a second let its heap grow by 40 MB of garbage before
 * collecting. Twice a second, when the resident size has grown by more than `slackBytes` since the
 * last full collection, collect fully (about 8 ms with the benchmark's data): peak RSS under load
 * went from about 103 to 85 MiB at the same throughput. An idle server does not grow, so it never pays.
 * @example const stop = startHeapTrim(); … stop();
 */
export function startHeapTrim(intervalMs = 500, slackBytes = 8 * MiB): () => void {
  const timer = setInterval(heapTrimmer(() => process.memoryUsage.rss(), () => Bun.gc(true), slackBytes), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * One check of the trim: collects when `rss()` has grown past the slack, and says whether it did.
 * The resident size is the process's, and the solver pool's workers grow it too (their heaps and
 * HiGHS's memory), which this thread's collection cannot free: with 4 large solves in flight the
 * event loop stopped for a full collection of 7–26 ms ten times in 15 s, each finding next to nothing.
 * So when a collection gives back less than half the growth that called for it, the slack doubles
 * (up to 16 times), and it returns to `slackBytes` when one gives back its growth again.
 * @example const check = heapTrimmer(() => process.memoryUsage.rss(), () => Bun.gc(true), 8 * MiB); setInterval(check, 500)
 */
export function heapTrimmer(rss: () => number, collect: () => void, slackBytes: number): () => boolean {
  let floor = rss();
  let slack = slackBytes;
  return () => {
    const before = rss();
    if (before <= floor + slack) return false;
    collect();
    const after = rss();
    slack = before - after < (before - floor) / 2 ? Math.min(slack * 2, slackBytes * MAX_SLACK_FACTOR) : slackBytes;
    floor = after;
    return true;
  };
}
