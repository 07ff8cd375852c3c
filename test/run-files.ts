/**
 * `make test` and `make test-postgres`: the test files run several at a time, each in a `bun test`
 * process of its own (2 by default: on 2 cores the suites are CPU-bound, and 4 at once finished no
 * sooner than one process running them all; a process per file isolates crashes). Slowest first,
 * by the durations recorded in test/timings/<backend>.json (a file not recorded yet counts as slowest),
 * so no long file starts last. Each file's output is held until it ends and then printed whole: its
 * "N pass" / "N fail" lines (which .ci/run adds up) and each failure with its error, never interleaved.
 * The status is 1 when any file fails.
 *
 * Usage: bun test/run-files.ts [--postgres] [--jobs N] [--update-timings] [FILE...]
 *   (no --postgres) every test file `bun test` would find: a file is never left out
 *   --postgres      the files of test/postgres/suite.ts, beside the cluster of test/postgres/cluster.sh;
 *                   the OWN_CLUSTER ones each beside a throwaway cluster of their own
 *   --update-timings  record this run's durations in test/timings/<backend>.json
 *   FILE...         only these (test/x.test.ts)
 */
import { Glob } from "bun";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { BACKEND_NEUTRAL, OWN_CLUSTER, POSTGRES_ONLY } from "./postgres/suite.ts";

const ROOT = join(import.meta.dir, "..");
const TIMEOUT_MS = 30_000; // tests start real servers and subprocesses: more than bun's 5 s on a loaded 2-core machine
/**
 * The nice value every file runs at. The solver workers run under SCHED_IDLE (src/optimize/pool-worker.ts),
 * so a core both want goes to a file's own CPU work (GLPK proofs, lintian, load it makes) before another
 * file's solves: at nice 0 by a weight of 1,024 to their 3, and solves of a few hundred ms pass serve's 5 s
 * solve timeout (503); at 18, 18 to 3, which they survive.
 */
const NICE = 18;

/** Bun's own test-file names (`bun test` with no pattern runs every one of them outside node_modules). */
const TEST_FILE = /[._](test|spec)\.[cm]?[jt]sx?$/;

/**
 * Every file `bun test` finds, relative to the repository: what `make test` runs.
 * @example testFiles() // ["test/analyses-cli.test.ts", …]
 */
export function testFiles(root = ROOT): string[] {
  const found: string[] = [];
  for (const path of new Glob("**/*").scanSync({ cwd: root, dot: false })) {
    if (TEST_FILE.test(path) && !path.split("/").includes("node_modules")) found.push(path);
  }
  return found.sort();
}

/**
 * `files` slowest first by the recorded durations (ms); files with none first of all, in name order.
 * @example slowestFirst(["a", "b", "c"], { a: 10, b: 200 }) // ["c", "b", "a"]
 */
export function slowestFirst(files: readonly string[], timings: Record<string, number>): string[] {
  const known = (file: string) => timings[file] ?? Infinity;
  return [...files].sort((a, b) => known(b) - known(a) || a.localeCompare(b));
}

type Outcome = { file: string; status: number; ms: number; pass: number; fail: number; output: string };

/** One file in its own `bun test` (beside a cluster of its own when `ownCluster`), its output held. */
async function runFile(file: string, ownCluster: boolean): Promise<Outcome> {
  const started = performance.now();
  // "./": a path, not a name filter (bun would also run test/postgres/x.pg.ts for a filter "x").
  const command = ["nice", "-n", String(Math.max(0, NICE - getPriority())), process.execPath, "test", `--timeout=${TIMEOUT_MS}`, `./${file}`];
  const proc = Bun.spawn(ownCluster ? [join(ROOT, "test/postgres/cluster.sh"), ...command] : command, {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  running.add(proc);
  // bun test reports on stderr, console.log of the tests goes to stdout: both, stdout first.
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const status = await proc.exited;
  running.delete(proc);
  const count = (word: string) => Number(new RegExp(`^ *(\\d+) ${word}$`, "m").exec(err)?.[1] ?? 0);
  return { file, status, ms: performance.now() - started, pass: count("pass"), fail: count("fail"), output: out + err };
}

const running = new Set<ReturnType<typeof Bun.spawn>>();

async function main(args: string[]): Promise<number> {
  // Stopped (Ctrl-C, or cluster.sh passing on a TERM): stop the files still running, whose own servers stop with them.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      for (const proc of running) proc.kill("SIGTERM");
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
  const postgres = args.includes("--postgres");
  const jobsAt = args.indexOf("--jobs");
  const jobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : 2;
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error("--jobs takes a whole number of at least 1");
  const named = args.filter((arg, i) => !arg.startsWith("--") && args[i - 1] !== "--jobs");
  const files = named.length > 0 ? named : postgres ? [...BACKEND_NEUTRAL, ...POSTGRES_ONLY] : testFiles();
  const timingsFile = join(ROOT, "test/timings", postgres ? "postgres.json" : "sqlite.json");
  const timings: Record<string, number> = existsSync(timingsFile) ? JSON.parse(readFileSync(timingsFile, "utf8")) : {};
  const queue = slowestFirst(files, timings);
  const outcomes: Outcome[] = [];
  const started = performance.now();
  console.log(`${files.length} test files, ${jobs} at a time${postgres ? " on PostgreSQL" : ""}`);
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const outcome = await runFile(file, postgres && OWN_CLUSTER.includes(file));
        outcomes.push(outcome);
        process.stdout.write(`\n===== ${file} (${(outcome.ms / 1000).toFixed(1)} s, status ${outcome.status}) =====\n${outcome.output}`);
        // Ended badly without a failing test to show for it (a crash, an error outside any test): a
        // failure line of its own, counted like bun's, so .ci/run's sum and failure list include it.
        if (outcome.status !== 0 && outcome.fail === 0) process.stdout.write(`(fail) ${file}: bun test ended with status ${outcome.status}\n 1 fail\n`);
      }
    }),
  );
  const failed = outcomes.filter((o) => o.status !== 0);
  const missing = files.filter((file) => !outcomes.some((o) => o.file === file));
  const sum = (key: "pass" | "fail") => outcomes.reduce((n, o) => n + o[key], 0);
  // Not in bun's "N pass" form: .ci/run has already counted each file's own lines.
  console.log(`\n${outcomes.length} of ${files.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s: tests passed ${sum("pass")}, failed ${sum("fail")}`);
  for (const o of failed) console.log(`failed: ${o.file} (status ${o.status})`);
  for (const file of missing) console.log(`not run: ${file}`);
  if (args.includes("--update-timings")) {
    for (const o of outcomes) timings[o.file] = Math.round(o.ms);
    const measured = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(timingsFile, JSON.stringify(measured, null, 2) + "\n");
  }
  return failed.length === 0 && missing.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
