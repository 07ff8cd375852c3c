/**
 * Lays out bench/RESULTS.md from what bench/run.ts measured: medians, ratios to the limits measured
 * in the same run, and every run with its disturbance, so a reader can judge each figure.
 */

import { renderHistory, type HistoryBench } from "./history.ts";
import { renderWebhooks, type WebhookRun } from "./webhooks-report.ts";

/** One endpoint under load; `available` is false (with `why`) when the server cannot answer it yet. */
export interface ScenarioSpec {
  id: string;
  label: string;
  method: "GET" | "PUT";
  paths: string[];
  available: boolean;
  why: string | null;
}

/** One bounded run of one side: feedbase, the bare server, or the bare commit loop. */
export interface RunRecord {
  scenario: string;
  side: "feedbase" | "bare" | "commit-1" | "commit-n" | "metrics" | "postgres";
  rep: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and HTTP answers >= 400: any makes the run's figures suspect. */
  errors: number;
  waitedMs: number;
  idleAtStart: boolean;
  /** Average cores other processes used during the run. */
  otherCores: number;
  stealCores: number;
  /** The server's CPU per answered request, µs (GET runs). */
  serverCpuUs?: number;
}

/** What bench/bare-commit.ts prints. */
export interface CommitResult {
  writers: number;
  commits: number;
  seconds: number;
  commitsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

export interface BenchReport {
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; kernel: string };
  versions: { bun: string; feedbase: string; wrk: string };
  load: { threads: number; connections: number; seconds: number; warmupSeconds: number; reps: number };
  /** The longest wait for an idle machine before a run, and after how long into the bench waiting stops. */
  idle: { maxWaitSeconds: number; budgetSeconds: number };
  dataset: { ingredients: number; formulas: number; formulaLines: number; importRows: number; seed: number; keys: number; formulasNote: string | null };
  scenarios: ScenarioSpec[];
  runs: RunRecord[];
  /** The PostgreSQL server's version when the PostgreSQL side ran (make bench's throwaway cluster), else null. */
  postgres: string | null;
  memory: { idleRssKiB: number; bareIdleRssKiB: number; peakRssKiB: number; bareRssPeakKiB: number; served: number };
  limiter: Record<string, number> | null;
  webhooks: WebhookRun;
  history: { figures: HistoryBench | null; failure: string | null };
  /** `postgresMs`: the same import into an empty PostgreSQL database; null when the cluster was not there. */
  importTime: { rows: number; bytes: number; importMs: number; postgresMs: number | null; baselineMs: number } | null;
  /** `postgresMs`: `serve --database` on the PostgreSQL copy of the same data; null when the cluster was not there. */
  coldStart: { ms: number; postgresMs: number | null; bareMs: number; runs: number };
  executable: { bytes: number; bareBytes: number };
  elapsedSeconds: number;
  notes: string[];
}

/** A run is disturbed when other processes (or the hypervisor) took more than this many cores on average. */
export const DISTURBED_CORES = 0.1;
const disturbed = (r: RunRecord) => r.otherCores > DISTURBED_CORES || r.stealCores > DISTURBED_CORES;

/** @example median([3, 1, 2]) // 2 */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const int = (x: number) => Math.round(x).toLocaleString("en-US");
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (x: number) => x.toFixed(2);
const times = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;
const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;

/**
 * One repetition of a scenario: feedbase's run and the limit runs made right after it, under the
 * same conditions. Ratios are taken within a pair, so load that drifts between pairs cancels out.
 */
interface Pair {
  mine: RunRecord;
  /** The throughput limit: the bare server, or for PUT the faster of the two commit loops. */
  limit: RunRecord;
  /** The latency limit at the same concurrency: the bare server, or for PUT N writers taking turns. */
  latencyLimit: RunRecord;
  disturbed: boolean;
}

/** The pairs a scenario's figures use: the undisturbed ones when there are at least 2, else all. */
export function usedPairs(runs: RunRecord[], scenario: ScenarioSpec): { used: Pair[]; all: Pair[] } {
  const find = (side: RunRecord["side"], rep: number) => runs.find((x) => x.scenario === scenario.id && x.side === side && x.rep === rep);
  const all: Pair[] = [];
  for (const mine of runs.filter((x) => x.scenario === scenario.id && x.side === "feedbase")) {
    const latencyLimit = find(scenario.method === "GET" ? "bare" : "commit-n", mine.rep);
    const single = find("commit-1", mine.rep);
    const limit = single && latencyLimit && single.rps > latencyLimit.rps ? single : latencyLimit;
    if (!limit || !latencyLimit) continue;
    all.push({ mine, limit, latencyLimit, disturbed: [mine, limit, latencyLimit].some(disturbed) });
  }
  const clean = all.filter((p) => !p.disturbed);
  return { used: clean.length >= 2 ? clean : all, all };
}

/**
 * Every scenario on PostgreSQL beside SQLite: in each repetition `serve --database` on a copy of the same
 * data (`feedbase copy-to`) ran next to `serve --data`, and the ratio is the median of the per-repetition ratios.
 * @example renderPostgresSide(report)
 */
export function renderPostgresSide(r: BenchReport): string {
  const title = "## PostgreSQL beside SQLite";
  if (r.postgres === null) return `${title}\n\nNot measured in this run (see Notes).\n`;
  const out = [
    title,
    "",
    `The same scenarios and load against \`feedbase serve --database\` on PostgreSQL ${r.postgres} (a throwaway cluster on this machine, ` +
      "made by make bench from Debian's package: default settings, fsync on) holding a copy of the same data (`feedbase copy-to`), " +
      "run next to `feedbase serve --data` in every repetition (before it in even repetitions, after it in odd ones).",
    "",
    "| endpoint | SQLite req/s | PostgreSQL req/s | PostgreSQL ÷ SQLite | SQLite p50 ms | PostgreSQL p50 ms | SQLite p99 ms | PostgreSQL p99 ms | repetitions used |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const s of r.scenarios.filter((x) => x.available)) {
    const pairs = r.runs
      .filter((x) => x.scenario === s.id && x.side === "postgres")
      .flatMap((pg) => {
        const lite = r.runs.find((x) => x.scenario === s.id && x.side === "feedbase" && x.rep === pg.rep);
        return lite ? [{ lite, pg, disturbed: disturbed(lite) || disturbed(pg) }] : [];
      });
    if (pairs.length === 0) continue;
    const clean = pairs.filter((p) => !p.disturbed);
    const used = clean.length >= 2 ? clean : pairs;
    const m = (f: (p: (typeof used)[number]) => number) => median(used.map(f));
    const shown = used.length < pairs.length ? `${used.length} of ${pairs.length} (undisturbed)` : `all ${pairs.length}`;
    out.push(
      `| ${s.label} | ${int(m((p) => p.lite.rps))} | ${int(m((p) => p.pg.rps))} | **${ratio(m((p) => p.pg.rps / p.lite.rps))}** | ` +
        `${ms(m((p) => p.lite.p50Ms))} | ${ms(m((p) => p.pg.p50Ms))} | ${ms(m((p) => p.lite.p99Ms))} | ${ms(m((p) => p.pg.p99Ms))} | ${shown} |`,
    );
  }
  out.push("");
  return out.join("\n");
}

/**
 * The cost of `serve --metrics` on the small read: each repetition's run with metrics off and the run
 * with them on made right after it, and the median of the per-repetition ratios.
 * @example renderMetricsCost(report.runs, report.load)
 */
export function renderMetricsCost(runs: RunRecord[], load: BenchReport["load"]): string {
  const cpu = (r: RunRecord) => (r.serverCpuUs === undefined ? "–" : r.serverCpuUs.toFixed(1));
  const on = runs.filter((x) => x.side === "metrics");
  const pairs = on.flatMap((m) => {
    const off = runs.find((x) => x.scenario === m.scenario && x.side === "feedbase" && x.rep === m.rep);
    return off ? [{ off, on: m, disturbed: disturbed(off) || disturbed(m) }] : [];
  });
  if (pairs.length === 0) return "## The cost of --metrics on the read path\n\nNot measured in this run.\n";
  const clean = pairs.filter((p) => !p.disturbed);
  const used = clean.length >= 2 ? clean : pairs;
  const out = [
    "## The cost of --metrics on the read path",
    "",
    `GET /v1/ingredients/:name (cached, rotating over every name), \`wrk -t${load.threads} -c${load.connections} -d${load.seconds}s\` against ` +
      "`feedbase serve` and, next to each run (before it in even repetitions, after it in odd ones), against a second `feedbase serve --metrics` on the same data file " +
      "(every answer counted by route, method and status and timed into the latency histogram).",
    "",
    "| run | off req/s | on req/s | on ÷ off | off CPU µs/req | on CPU µs/req | on ÷ off | off p50 ms | on p50 ms | off p99 ms | on p99 ms | disturbed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...pairs.map(
      (p) =>
        `| ${p.on.rep} | ${int(p.off.rps)} | ${int(p.on.rps)} | ${ratio(p.on.rps / p.off.rps)} | ` +
        `${cpu(p.off)} | ${cpu(p.on)} | ${ratio((p.on.serverCpuUs ?? NaN) / (p.off.serverCpuUs ?? NaN))} | ${ms(p.off.p50Ms)} | ${ms(p.on.p50Ms)} | ` +
        `${ms(p.off.p99Ms)} | ${ms(p.on.p99Ms)} | ${p.disturbed ? "yes" : "no"} |`,
    ),
    "",
    `Throughput with metrics on ÷ off: **${ratio(median(used.map((p) => p.on.rps / p.off.rps)))}**; the server's CPU per request, on ÷ off: ` +
      `**${ratio(median(used.map((p) => (p.on.serverCpuUs ?? NaN) / (p.off.serverCpuUs ?? NaN))))}** ` +
      `(medians over ${used.length === pairs.length ? `all ${pairs.length}` : `the ${used.length} undisturbed`} repetitions). ` +
      "CPU per request is the steadier figure on a shared machine: other load moves throughput more than it moves the server's own work.",
    "",
  ];
  return out.join("\n");
}

/**
 * The whole RESULTS.md text.
 * @example writeFileSync("bench/RESULTS.md", renderReport(report))
 */
export function renderReport(r: BenchReport): string {
  const out: string[] = [];
  const line = (text = "") => out.push(text);
  const { load, dataset } = r;

  line("# Benchmark results");
  line();
  line(`Written by \`make bench\` (bench/run.ts) on ${r.date} in ${Math.round(r.elapsedSeconds)} s. Regenerate it; do not edit it.`);
  line();
  line("## Machine and versions");
  line();
  line("| | |");
  line("|---|---|");
  line(`| CPU | ${r.machine.cpu}, ${r.machine.cores} cores |`);
  line(`| Memory | ${r.machine.memoryGiB} GiB |`);
  line(`| Kernel | Linux ${r.machine.kernel} |`);
  line(`| Bun | ${r.versions.bun} |`);
  line(`| feedbase | ${r.versions.feedbase} |`);
  line(`| wrk | ${r.versions.wrk} |`);
  line();
  line("## Method");
  line();
  line(
    `- Dataset (seed ${dataset.seed}): ${int(dataset.ingredients)} ingredients × 40 nutrients in 6 pools, inserted with the store's \`insertIngredient\`; ` +
      (dataset.formulasNote
        ? `formulas not loaded: ${dataset.formulasNote}.`
        : `${dataset.formulas} formulas of ${dataset.formulaLines} ingredients imported with \`feedbase import formulas\`.`),
  );
  line(
    `- Load: \`wrk -t${load.threads} -c${load.connections} -d${load.seconds}s\` on loopback against \`dist/feedbase serve\`; ${dataset.keys} keys made by ` +
      "`feedbase key create --rate-limit 1000000 --write`, rotated per request (bench/wrk.lua); detail and PUT paths rotate over every name or id. " +
      "Every PUT carries a price no other request of the run carries, so each one changes the price and writes a `price.updated` event.",
  );
  line(
    "- Limit for reads: a bare `Bun.serve`, compiled like feedbase, answering each path with the status, headers and body captured from feedbase " +
      "(one Map lookup and one Response per request; bench/bare-server.ts). Limit for PUT: a bare bun:sqlite loop committing the same write " +
      "(UPDATE of the price + INSERT of the event, WAL, `synchronous=FULL`; bench/bare-commit.ts), once with one writer back to back and once with " +
      `${load.connections} writers taking FIFO turns (one commit per write, the same concurrency as wrk): the faster of the two is the throughput limit, ` +
      `the ${load.connections} writers give the latency limit.`,
  );
  line(
    `- Runs are interleaved (feedbase, then its limit, scenario after scenario) after a ${load.warmupSeconds} s warm-up of each side, and repeated ${load.reps} times; ` +
      "a scenario with fewer than 2 undisturbed repetitions gets up to 2 more while time allows. Each figure is the median over the undisturbed repetitions when there " +
      "are at least 2, else over all (the last column says which); each ratio is the median of the per-repetition ratios (feedbase against the limit run right after it). " +
      `Before each run the runner waits (at most ${r.idle.maxWaitSeconds} s, and only in the first ${r.idle.budgetSeconds / 60} minutes, to finish within 10) for an idle machine (under 10 % of the cores busy); ` +
      `a run is counted as disturbed when other processes, or the hypervisor (steal), took more than ${DISTURBED_CORES} core on average during it.`,
  );
  line("- Ratios: throughput = feedbase ÷ limit (1.00 is the limit; issue 10 aims at 0.8). Latency = feedbase ÷ limit, shown as a multiple (lower is better).");
  line();

  line("## Throughput and latency against the limit");
  line();
  line("| endpoint | req/s | limit req/s | ratio | p50 ms | limit p50 ms | p50 vs limit | p99 ms | limit p99 ms | p99 vs limit | repetitions used |");
  line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const s of r.scenarios) {
    if (!s.available) {
      line(`| ${s.label} | not measured yet: ${s.why?.replaceAll("|", "\\|")} | | | | | | | | | |`);
      continue;
    }
    const { used, all } = usedPairs(r.runs, s);
    const m = (f: (p: Pair) => number) => median(used.map(f));
    const shown = used.length < all.length ? `${used.length} of ${all.length} (undisturbed)` : `all ${all.length}${all.some((p) => p.disturbed) ? `, ${all.filter((p) => p.disturbed).length} disturbed` : ""}`;
    line(
      `| ${s.label} | ${int(m((p) => p.mine.rps))} | ${int(m((p) => p.limit.rps))} | **${ratio(m((p) => p.mine.rps / p.limit.rps))}** | ` +
        `${ms(m((p) => p.mine.p50Ms))} | ${ms(m((p) => p.latencyLimit.p50Ms))} | ${times(m((p) => p.mine.p50Ms / p.latencyLimit.p50Ms))} | ` +
        `${ms(m((p) => p.mine.p99Ms))} | ${ms(m((p) => p.latencyLimit.p99Ms))} | ${times(m((p) => p.mine.p99Ms / p.latencyLimit.p99Ms))} | ${shown} |`,
    );
  }
  line();
  const put = r.scenarios.find((s) => s.id === "put");
  if (put?.available) {
    const { used } = usedPairs(r.runs, put);
    const reps = new Set(used.map((p) => p.mine.rep));
    const summary = (side: RunRecord["side"]) => {
      const runs = r.runs.filter((x) => x.scenario === "put" && x.side === side && reps.has(x.rep));
      return { rps: median(runs.map((x) => x.rps)), p50Ms: median(runs.map((x) => x.p50Ms)), p99Ms: median(runs.map((x) => x.p99Ms)) };
    };
    const mine = summary("feedbase");
    const one = summary("commit-1");
    const many = summary("commit-n");
    line("## Write path");
    line();
    line("| | per second | p50 ms | p99 ms |");
    line("|---|---:|---:|---:|");
    line(`| PUT /v1/prices/:name, feedbase, ${load.connections} connections | ${int(mine.rps)} requests | ${ms(mine.p50Ms)} | ${ms(mine.p99Ms)} |`);
    line(`| bare commit loop, 1 writer back to back | ${int(one.rps)} commits | ${ms(one.p50Ms)} | ${ms(one.p99Ms)} |`);
    line(`| bare commit loop, ${load.connections} writers taking turns | ${int(many.rps)} commits | ${ms(many.p50Ms)} | ${ms(many.p99Ms)} |`);
    line();
    line(
      `PUT throughput is **${ratio(median(used.map((p) => p.mine.rps / p.limit.rps)))}** of the faster commit loop and ` +
        `${ratio(median(used.map((p) => p.mine.rps / p.latencyLimit.rps)))} of ${load.connections} writers taking turns (medians of the per-repetition ratios). ` +
        "A server that shares one commit among several requests (group commit) can pass 1.00: the limit is one fsync per commit, not per request.",
    );
    line();
  }

  line(renderPostgresSide(r));
  line(renderMetricsCost(r.runs, load));

  line("## Memory (idle and peak RSS)");
  line();
  line("| | feedbase | bare server | ratio |");
  line("|---|---:|---:|---:|");
  line(`| idle RSS, 0.5 s after the first 200 | ${mib(r.memory.idleRssKiB)} | ${mib(r.memory.bareIdleRssKiB)} | ${ratio(r.memory.idleRssKiB / r.memory.bareIdleRssKiB)} |`);
  line(`| peak RSS (VmHWM) over all runs | ${mib(r.memory.peakRssKiB)} | ${mib(r.memory.bareRssPeakKiB)} | ${ratio(r.memory.peakRssKiB / r.memory.bareRssPeakKiB)} |`);
  line();
  line(
    `feedbase answered ${int(r.memory.served)} measured requests (warm-ups and captures besides). The exact sliding-window limiter keeps the timestamp ` +
      `of every accepted request for an hour (8 bytes each, in rings that double), so its share of the peak grows with the last hour's traffic: ` +
      `about ${mib((r.memory.served * 8) / 1024)} to ${mib((r.memory.served * 16) / 1024)} here.`,
  );
  line();

  line("## Limiter cost");
  line();
  if (r.limiter) {
    const l = r.limiter;
    line(`From bench/limiter.ts, ${int(l.keys ?? 0)} active keys in steady state (each check evicts one request and accepts one):`);
    line();
    line("| ns per check | baseline ns (Map.get + increment) | ratio | bytes per key | sweep of all keys |");
    line("|---:|---:|---:|---:|---:|");
    line(`| ${l.nsPerCheck} | ${l.baselineNsPerOp} | ${times(Number(l.ratio))} | ${l.bytesPerKey} | ${l.sweepMs} ms |`);
  } else {
    line("not measured: bench/limiter.ts failed (see notes).");
  }
  line();

  for (const l of renderWebhooks(r.webhooks)) line(l);

  for (const l of renderHistory(r.history.figures, r.history.failure ?? undefined)) line(l);

  line("## Import time");
  line();
  if (r.importTime) {
    const i = r.importTime;
    const rowOf = (what: string, ms: number) => line(`| ${what} | ${(ms / 1000).toFixed(2)} | ${int(i.rows / (ms / 1000))} |`);
    line("| | seconds | rows/s |");
    line("|---|---:|---:|");
    rowOf(`\`feedbase import ingredients\` of a ${int(i.rows)}-row CSV (${mib(i.bytes / 1024)}) into an empty data file, process start included`, i.importMs);
    if (i.postgresMs !== null) rowOf("the same CSV with `--database` into an empty PostgreSQL database (schema made by the command, as on a first import)", i.postgresMs);
    rowOf("baseline: the same rows inserted with the store's insert in one transaction, in process", i.baselineMs);
    line();
    line(
      `Import takes **${times(i.importMs / i.baselineMs)}** the baseline (one run each)` +
        (i.postgresMs === null ? "; PostgreSQL not measured (see Notes)." : `; into PostgreSQL, in the same run on the same machine, PostgreSQL ÷ SQLite: **${ratio(i.postgresMs / i.importMs)}**.`),
    );
  } else {
    line("not measured yet: the executable has no `import ingredients` command (or it failed; see notes).");
  }
  line();

  line("## Cold start");
  line();
  const c = r.coldStart;
  line(
    `Spawn to the first 200 on \`/v1/prices\`, median of ${c.runs}: feedbase ${ms(c.ms)} ms, the bare server (compiled the same way) ` +
      `${ms(c.bareMs)} ms: **${times(c.ms / c.bareMs)}**.` +
      (c.postgresMs === null
        ? " PostgreSQL not measured (see Notes)."
        : ` \`serve --database\` on the PostgreSQL copy of the same data, interleaved in the same run (connecting, checking the schema, reading the prices): ` +
          `${ms(c.postgresMs)} ms, PostgreSQL ÷ SQLite **${ratio(c.postgresMs / c.ms)}**.`),
  );
  line();
  line("## Executable size");
  line();
  line(
    `dist/feedbase is ${mib(r.executable.bytes / 1024)}; the bare server compiled with the same \`bun build --compile\` flags is ${mib(r.executable.bareBytes / 1024)} ` +
      `(the Bun runtime itself): **${ratio(r.executable.bytes / r.executable.bareBytes)}**.`,
  );
  line();

  const bad = r.runs.filter(disturbed);
  const failed = r.runs.filter((x) => x.errors > 0);
  line("## Notes");
  line();
  for (const n of r.notes) line(`- ${n}`);
  for (const s of r.scenarios.filter((x) => !x.available)) line(`- ${s.label} not measured yet: ${s.why}`);
  line(`- ${bad.length} of ${r.runs.length} runs disturbed by other load${bad.length ? "; see the last column below" : ""}.`);
  if (failed.length) line(`- ${failed.length} runs had errors (connection, timeout or HTTP >= 400): their figures are suspect.`);
  line();
  line("## All runs");
  line();
  line("| endpoint | side | run | req/s | p50 ms | p99 ms | errors | waited s | idle at start | other processes (cores) | steal (cores) |");
  line("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|");
  const label = (id: string) => r.scenarios.find((s) => s.id === id)?.label ?? id;
  const sideName = (s: RunRecord["side"]) =>
    s === "commit-1" ? "commit loop, 1 writer" : s === "commit-n" ? `commit loop, ${load.connections} writers` : s === "metrics" ? "feedbase --metrics" : s === "postgres" ? "feedbase on PostgreSQL" : s;
  for (const x of r.runs) {
    line(
      `| ${label(x.scenario)} | ${sideName(x.side)} | ${x.rep} | ${int(x.rps)} | ${ms(x.p50Ms)} | ${ms(x.p99Ms)} | ${x.errors} | ${(x.waitedMs / 1000).toFixed(1)} | ` +
        `${x.idleAtStart ? "yes" : "no"} | ${x.otherCores.toFixed(2)} | ${x.stealCores.toFixed(2)}${disturbed(x) ? " **disturbed**" : ""} |`,
    );
  }
  return out.join("\n") + "\n";
}
