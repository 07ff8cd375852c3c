/**
 * The throwaway cluster of test/postgres/cluster.sh, made to fail the way a real one does: stopped
 * (pg_ctl stop, connections refused), stalled (every process of it SIGSTOPped: connections open, no
 * answer, no timeout fires server-side), through the control script cluster.sh writes
 * ($FEEDBASE_TEST_PG_CTL). Every test that stops or stalls it must restart or resume it in `finally`.
 */

const CTL = process.env.FEEDBASE_TEST_PG_CTL ?? "";

function ctl(command: "stop" | "start" | "pid"): string {
  if (CTL === "") throw new Error("FEEDBASE_TEST_PG_CTL is not set: run under test/postgres/cluster.sh (make test-postgres)");
  const run = Bun.spawnSync([CTL, command], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`cluster ${command} failed: ${run.stderr.toString().trim()}`);
  return run.stdout.toString().trim();
}

/** Stop the cluster (fast shutdown: sessions are ended, new connections refused). @example stopCluster() */
export function stopCluster(): void {
  ctl("stop");
}

/** Start it again on the same port. @example startCluster() */
export function startCluster(): void {
  ctl("start");
}

/**
 * SIGSTOP the postmaster and every process it started; returns a function that resumes them. They
 * resume by themselves after `atMostMs` too: a test that times out waiting on the stalled cluster never
 * reaches its `finally`, and the rest of the suite needs the cluster.
 * @example const resume = stallCluster(20_000); try { … } finally { resume() }
 */
export function stallCluster(atMostMs: number): () => void {
  const postmaster = Number(ctl("pid"));
  const children = Bun.spawnSync(["pgrep", "-P", String(postmaster)], { stdout: "pipe" }).stdout.toString().trim().split("\n").filter(Boolean).map(Number);
  const pids = [postmaster, ...children];
  for (const pid of pids) process.kill(pid, "SIGSTOP");
  let resumed = false;
  const resume = () => {
    if (resumed) return;
    resumed = true;
    clearTimeout(guard);
    for (const pid of pids) process.kill(pid, "SIGCONT");
  };
  const guard = setTimeout(resume, atMostMs);
  return resume;
}
