/**
 * The price-history figures of `make bench` (docs/decisions.md#price-history-and-formula-costs):
 *
 * 1. Latency of the history reads on 1,000 ingredients with 100 price entries each and 200 formulas:
 *    `GET /v1/prices?at=`, `GET /v1/formulas/:id/cost?at=` and `GET /v1/reports/cost-changes?since=`,
 *    each request with an instant of its own, so none is answered from the read cache (every one
 *    computes). Sequential requests from one client over loopback; the bound is 50 ms each.
 * 2. Throughput of `GET /v1/prices` and `PUT /v1/prices/:name` with history against without it: the
 *    baseline executable is this same tree compiled the same way with one change, SQLite's `appendEntry`
 *    (the only statement that writes a history entry) replaced by one that does nothing, so the two differ
 *    by the history write alone (an earlier build would also differ by everything landed since). Both
 *    serve identical copies of the same data file. wrk runs alternate, history build then baseline,
 *    so load that comes and goes hits both; the figure is the median of the per-pair ratios.
 *
 * Run alone: `bun bench/history.ts [dist/feedbase]` prints the RESULTS.md section and the JSON figures
 * and puts the section into bench/RESULTS.md in place of its previous one. bench/run.ts runs it as one
 * of its extra figures.
 */
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateFormulas, generateIngredients, seedIngredients, SEED } from "./dataset.ts";
import { writeSection } from "./results-file.ts";
import { freePort, processTicks, waitForIdle } from "./system.ts";
import { copyToPostgres } from "./postgres-copy.ts";
import { openDatabase } from "../src/store/db.ts";
import { createKey } from "../src/store/keys.ts";
import { FOLD_AT, foldPriceLog, recordPrice } from "../src/store/price-history.ts";
import { FOLD_QUIET_MS } from "../src/service/quiet-fold.ts";
import { requireWorkspace } from "../src/store/workspaces.ts";
import { importFormulas } from "../src/admin/imports.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import { seeded } from "../src/domain/random.ts";

const ROOT = join(import.meta.dir, "..");
/** The one statement that writes history entries, up to the end of its body, and what the baseline has instead. */
const HISTORY_WRITE = { file: "src/store/sqlite/price-history.ts", fn: /\n {2}appendEntry: [\s\S]*?\n {2}\},\n/, noop: "\n  appendEntry: () => {},\n" };
const SHAPE = { ingredients: 1000, entriesPerIngredient: 100, formulas: 200, formulaLines: 12 } as const;
const LATENCY_REQUESTS = { history: 30, pricesAt: 30, cost: 40, report: 20 } as const;
const BOUND_MS = 50;
/** Short runs: the machine is shared. */
const WRK = { threads: 2, connections: 32, seconds: 3, reps: 5 } as const;
const WEEK_MS = 7 * 24 * 3600 * 1000;
const TICKS_PER_SECOND = 100;
const NOW = Date.parse("2026-11-23T08:00:00.000Z");
/** make bench's throwaway cluster (test/postgres/cluster.sh): the history reads on PostgreSQL too when it is there. */
const PG_ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL;

export interface LatencyFigure {
  requests: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
}

export interface LatencySet {
  history: LatencyFigure;
  pricesAt: LatencyFigure;
  pricesNow: LatencyFigure;
  cost: LatencyFigure;
  report: LatencyFigure;
}

/** One figure per run, with history and without. */
interface Sides {
  history: number[];
  baseline: number[];
}

export interface HistoryBench {
  shape: typeof SHAPE;
  baselineNote: string | null;
  /**
   * The same reads on the same data with the log just folded and with it one entry short of its next fold;
   * `postgres`: on a PostgreSQL copy of the log-empty file (null, with `postgresNote`, when not measured).
   */
  latency: { logEmpty: LatencySet; logFull: LatencySet | null; quietFolded?: LatencySet | null; postgres?: LatencySet | null };
  postgresNote?: string | null;
  throughput: { id: "prices" | "put"; label: string; history: number[]; baseline: number[]; ratio: number | null; kibPerRequest: Sides; cpuUsPerRequest: Sides }[];
}

const progress = (msg: string) => process.stderr.write(`[bench history] ${msg}\n`);
export const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
export const medianOf = (xs: number[]) => quantile(xs, 0.5);

async function run(cmd: string[], cwd = ROOT, timeoutMs = 180_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * One PUT (so the server's quiet period starts), then wait until the server has folded its log
 * (src/service/quiet-fold.ts), read from a connection of our own. Null when the fold did not come.
 */
async function afterQuietFold(server: Server, dataPath: string, key: string, name: string): Promise<true | null> {
  const res = await fetch(`${server.url}/v1/prices/${encodeURIComponent(name)}`, { method: "PUT", headers: { "X-API-Key": key }, body: JSON.stringify({ price: 123.45 }) });
  if (res.status !== 200) throw new Error(`PUT before the quiet fold answered ${res.status}`);
  const db = new Database(dataPath, { readonly: true });
  try {
    const deadline = Date.now() + FOLD_QUIET_MS + 15_000;
    while ((db.query("SELECT count(*) AS n FROM price_log").get() as { n: number }).n > 0) {
      if (Date.now() > deadline) return null;
      await Bun.sleep(50);
    }
    return true;
  } finally {
    db.close();
  }
}

/** The data file of DESIGN's history scenario, and the key that reads and writes it. */
export function prepareData(dataPath: string): { key: string; names: string[]; formulaIds: string[] } {
  const ingredients = generateIngredients(SHAPE.ingredients, SEED);
  seedIngredients(dataPath, ingredients, new Date(NOW - SHAPE.entriesPerIngredient * WEEK_MS).toISOString());
  const db = openDatabase(dataPath, { create: false });
  try {
    const workspaceId = requireWorkspace(db, "default").id;
    const formulas = generateFormulas(ingredients, SHAPE.formulas, SHAPE.formulaLines, SEED);
    // Each ingredient's first entry is its creation, 100 weeks ago; 99 weekly quotes follow, the last (a week ago) its current price.
    // Week by week, as a server records them; the log is folded just before its last FOLD_AT − 1 entries, so it ends full.
    const next = seeded(SEED + 7);
    const prices = new Map(ingredients.map((i) => [i.name, i.price]));
    const quotes = ingredients.length * (SHAPE.entriesPerIngredient - 1);
    let recorded = 0;
    db.transaction(() => {
      for (let week = SHAPE.entriesPerIngredient - 1; week >= 1; week--) {
        const at = new Date(NOW - week * WEEK_MS).toISOString();
        for (const ingredient of ingredients) {
          if (recorded++ === quotes - (FOLD_AT - 1)) foldPriceLog(db);
          const price = Math.max(1, Number((prices.get(ingredient.name)! * (1 + 0.03 * (2 * next() - 1))).toFixed(2)));
          prices.set(ingredient.name, price);
          recordPrice(db, workspaceId, ingredient.name, { price, inStock: ingredient.inStock, at, source: "import" });
        }
      }
      for (const [name, price] of prices) db.query("UPDATE ingredients SET price = ? WHERE workspace_id = ? AND name = ?").run(price, workspaceId, name);
      importFormulas(db, workspaceId, parseFormulaFile(formulas), { replace: false, now: new Date(NOW - 30 * WEEK_MS).toISOString() });
    }).immediate();
    const key = createKey(db, { workspaceId, write: true, rateLimit: 1_000_000, label: "bench history", now: new Date().toISOString() }).key;
    return { key, names: ingredients.map((i) => i.name), formulaIds: formulas.map((f) => f.id) };
  } finally {
    db.close();
  }
}

/**
 * This tree compiled as the Makefile compiles dist/feedbase, with appendEntry doing nothing: the
 * server without the history write and otherwise the same (src/ and cli/ as they are on disk).
 */
async function buildBaseline(tmp: string): Promise<{ exe: string | null; note: string | null }> {
  const tree = join(tmp, "baseline-tree");
  for (const part of ["src", "cli", "package.json", "tsconfig.json"]) cpSync(join(ROOT, part), join(tree, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  const source = readFileSync(join(tree, HISTORY_WRITE.file), "utf8");
  if (!HISTORY_WRITE.fn.test(source)) return { exe: null, note: `no baseline: appendEntry not found in ${HISTORY_WRITE.file}` };
  writeFileSync(join(tree, HISTORY_WRITE.file), source.replace(HISTORY_WRITE.fn, HISTORY_WRITE.noop));
  const exe = join(tmp, "feedbase-without-history");
  const flags = ["--compile", "--bytecode", "--format=esm", "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"];
  const built = await run([process.execPath, "build", join(tree, "cli", "main.ts"), ...flags, "--outfile", exe], tree);
  if (built.code !== 0) return { exe: null, note: `no baseline: bun build without the history write failed (${built.stderr.trim().split("\n").pop()})` };
  return { exe, note: null };
}

export interface Server {
  proc: Bun.Subprocess;
  url: string;
}

/**
 * `exe serve` on a data file (or with `"--database"`, on a PostgreSQL URL) and any further flags, once it answers 200 on /v1/health.
 * @example const server = await serve("dist/feedbase", "/tmp/x/feedbase.db", key)
 */
export async function serve(exe: string, dataPath: string, key: string, flag: "--data" | "--database" = "--data", extraArgs: string[] = []): Promise<Server> {
  const port = freePort();
  const proc = Bun.spawn([exe, "serve", flag, dataPath, "--port", String(port), ...extraArgs], { cwd: ROOT, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while ((await fetch(url + "/v1/health", { headers: { "X-API-Key": key } }).then((r) => r.status, () => 0)) !== 200) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`${exe} serve did not come up`);
    await Bun.sleep(5);
  }
  return { proc, url };
}

export async function stop(server: Server): Promise<void> {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
}

/** Sequential GETs, one per path, each timed from send to the last byte read, after waiting for an idle machine. */
export async function latency(url: string, key: string, paths: string[]): Promise<LatencyFigure> {
  await waitForIdle(3000);
  const ms: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    const res = await fetch(url + path, { headers: { "X-API-Key": key } });
    await res.arrayBuffer();
    ms.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  }
  return { requests: ms.length, medianMs: medianOf(ms), p90Ms: quantile(ms, 0.9), maxMs: Math.max(...ms) };
}

/** Bytes the server process has caused to be written to storage (/proc/<pid>/io): WAL frames and checkpoints. */
function writtenBytes(server: Server): number {
  return Number(/^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${server.proc.pid}/io`, "utf8"))?.[1] ?? NaN);
}

export async function wrk(url: string, method: "GET" | "PUT", pathsFile: string, keysFile: string, base: number): Promise<{ rate: number; requests: number }> {
  const out = await run(
    ["wrk", `-t${WRK.threads}`, `-c${WRK.connections}`, `-d${WRK.seconds}s`, "--timeout", "10s", "-s", join(import.meta.dir, "wrk.lua"), url, "--", method, pathsFile, keysFile, String(base), String(WRK.threads)],
    ROOT,
    (WRK.seconds + 30) * 1000,
  );
  const line = out.stdout.split("\n").find((l) => l.startsWith("BENCH_JSON "));
  if (out.code !== 0 || !line) throw new Error(`wrk failed: ${out.stderr || out.stdout}`);
  const r = JSON.parse(line.slice("BENCH_JSON ".length)) as { requests: number; durationUs: number; httpErrors: number };
  if (r.httpErrors > 0) throw new Error(`wrk ${method} ${url}: ${r.httpErrors} answers >= 400`);
  return { rate: r.requests / (r.durationUs / 1e6), requests: r.requests };
}

/**
 * Everything above, in a temporary directory; `exe` is the executable under test (dist/feedbase).
 * @example const figures = await benchHistory("dist/feedbase")
 */
export async function benchHistory(exe: string): Promise<HistoryBench> {
  const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-history-"));
  const servers: Server[] = [];
  try {
    progress(`seeding ${SHAPE.ingredients} ingredients × ${SHAPE.entriesPerIngredient} price entries, ${SHAPE.formulas} formulas`);
    const withHistory = join(tmp, "history.db");
    const { key, names, formulaIds } = prepareData(withHistory);
    const copy = new Database(withHistory);
    copy.run(`VACUUM INTO '${join(tmp, "baseline.db")}'`);
    copy.run(`VACUUM INTO '${join(tmp, "folded.db")}'`);
    copy.close();
    const folded = openDatabase(join(tmp, "folded.db"), { create: false });
    folded.transaction(() => foldPriceLog(folded)).immediate();
    folded.close();
    progress("building the baseline executable: this tree without the history write");
    const baseline = await buildBaseline(tmp);

    const instant = (i: number, n: number) => new Date(NOW - SHAPE.entriesPerIngredient * WEEK_MS + Math.floor(((i + 0.5) / n) * SHAPE.entriesPerIngredient * WEEK_MS) + i).toISOString();
    const series = (n: number, path: (i: number) => string) => Array.from({ length: n }, (_, i) => path(i));
    const latencies = async (server: Server): Promise<LatencySet> => {
      await latency(server.url, key, ["/v1/prices", "/v1/reports/cost-changes"]); // first touch of the file's pages
      return {
        history: await latency(server.url, key, series(LATENCY_REQUESTS.history, (i) => `/v1/prices/${encodeURIComponent(names[(i * 37) % names.length]!)}?from=${instant(i, LATENCY_REQUESTS.history)}`)),
        pricesAt: await latency(server.url, key, series(LATENCY_REQUESTS.pricesAt, (i) => `/v1/prices?at=${instant(i, LATENCY_REQUESTS.pricesAt)}`)),
        // After every entry: each one of the log counts (the most it costs).
        pricesNow: await latency(server.url, key, series(LATENCY_REQUESTS.pricesAt, (i) => `/v1/prices?at=${new Date(NOW + i).toISOString()}`)),
        cost: await latency(server.url, key, series(LATENCY_REQUESTS.cost, (i) => `/v1/formulas/${formulaIds[(i * 7) % formulaIds.length]}/cost?at=${instant(i, LATENCY_REQUESTS.cost)}`)),
        report: await latency(server.url, key, series(LATENCY_REQUESTS.report, (i) => `/v1/reports/cost-changes?since=${instant(i, LATENCY_REQUESTS.report)}`)),
      };
    };
    progress("latency of the history reads, log empty (no request answered from the cache)");
    const empty = await serve(exe, join(tmp, "folded.db"), key);
    servers.push(empty);
    const figures = { logEmpty: await latencies(empty), logFull: null as LatencySet | null, quietFolded: null as LatencySet | null, postgres: null as LatencySet | null };
    await stop(empty);
    if (PG_ADMIN_URL) {
      progress("latency of the history reads on PostgreSQL (a copy of the same data)");
      const copy = await copyToPostgres(PG_ADMIN_URL, `feedbase_bench_history_${process.pid}`, join(tmp, "folded.db"), (argv) => run([exe, ...argv]));
      const pg = await serve(exe, copy.url, key, "--database");
      servers.push(pg);
      figures.postgres = await latencies(pg);
      await stop(pg);
      await copy.drop();
    }
    const current = await serve(exe, withHistory, key);
    servers.push(current);
    progress(`latency of the history reads, ${FOLD_AT - 1} entries in the log`);
    figures.logFull = await latencies(current);
    progress(`latency of the history reads after one PUT and the fold once writes have been quiet for ${FOLD_QUIET_MS} ms`);
    // The PUT moves the data generation, so none of these reads comes from the cache the previous set filled.
    if (await afterQuietFold(current, withHistory, key, names[0]!)) figures.quietFolded = await latencies(current);

    const throughput: HistoryBench["throughput"] = [];
    const before = baseline.exe ? await serve(baseline.exe, join(tmp, "baseline.db"), key) : null;
    if (before) servers.push(before);
    const keysFile = join(tmp, "keys.txt");
    writeFileSync(keysFile, key + "\n");
    let base = 1000;
    for (const [id, label, method, paths] of [
      ["prices", "GET /v1/prices", "GET", ["/v1/prices"]],
      ["put", "PUT /v1/prices/:name", "PUT", names.map((n) => `/v1/prices/${encodeURIComponent(n)}`)],
    ] as const) {
      const pathsFile = join(tmp, `paths-${id}.txt`);
      writeFileSync(pathsFile, paths.join("\n") + "\n");
      const row = { id, label, history: [] as number[], baseline: [] as number[], ratio: null as number | null, kibPerRequest: { history: [], baseline: [] } as Sides, cpuUsPerRequest: { history: [], baseline: [] } as Sides };
      for (let rep = 0; rep < WRK.reps; rep++) {
        progress(`${label}, run ${rep + 1} of ${WRK.reps}`);
        for (const [side, server] of [["history", current], ["baseline", before]] as const) {
          if (!server) continue;
          await waitForIdle(1500);
          const [written, ticks] = [writtenBytes(server), processTicks(server.proc.pid)];
          const measured = await wrk(server.url, method, pathsFile, keysFile, (base += 10_000));
          row[side].push(measured.rate);
          row.kibPerRequest[side].push((writtenBytes(server) - written) / 1024 / measured.requests);
          row.cpuUsPerRequest[side].push(((processTicks(server.proc.pid) - ticks) * 1e6) / TICKS_PER_SECOND / measured.requests);
        }
      }
      if (row.baseline.length > 0) row.ratio = medianOf(row.history.map((h, i) => h / row.baseline[i]!));
      throughput.push(row);
    }
    return { shape: SHAPE, baselineNote: baseline.note, latency: figures, postgresNote: PG_ADMIN_URL ? null : "not measured: run through `make bench`, which starts a throwaway cluster (test/postgres/cluster.sh)", throughput };
  } finally {
    for (const s of servers) if (s.proc.exitCode === null) await stop(s);
    rmSync(tmp, { recursive: true, force: true });
  }
}

const fixed = (x: number, d = 1) => x.toFixed(d);

/**
 * The RESULTS.md section for these figures.
 * @example renderHistory(await benchHistory(exe)).join("\n")
 */
export function renderHistory(h: HistoryBench | null, failure?: string): string[] {
  const out = ["## Price history", ""];
  if (!h) return [...out, `not measured: ${failure ?? "bench/history.ts failed"}.`, ""];
  out.push(
    `From bench/history.ts: ${h.shape.ingredients.toLocaleString("en-US")} ingredients with ${h.shape.entriesPerIngredient} price entries each ` +
      `(${(h.shape.ingredients * h.shape.entriesPerIngredient).toLocaleString("en-US")} rows), ${h.shape.formulas} formulas of ${h.shape.formulaLines} ingredients.`,
    "",
    `**Latency** of one request from a single client over loopback, each with its own instant so none is served from the read cache (bound: ${BOUND_MS} ms for the median; ` +
      "the tail is where other processes on the shared machine show, see the runs of the other sections):",
    "",
    `Each read three times, on the same data: with the log just folded (empty), and with ${(FOLD_AT - 1).toLocaleString("en-US")} entries in it, one short of its next fold (the slowest it gets); ` +
      `then, on that server, one PUT and the fold it makes once writes have been quiet for ${FOLD_QUIET_MS / 1000} s (src/service/quiet-fold.ts).`,
    "",
    "| request | requests | log | median ms | p90 ms | max ms | median within the bound |",
    "|---|---:|---|---:|---:|---:|---|",
  );
  const rows: [string, keyof LatencySet][] = [
    ["`GET /v1/prices/:name?from=` (one ingredient's history)", "history"],
    ["`GET /v1/prices?at=` (1,000 rows as of the instant)", "pricesAt"],
    ["`GET /v1/prices?at=` after the last entry (every logged entry counts)", "pricesNow"],
    ["`GET /v1/formulas/:id/cost?at=` (12 rows)", "cost"],
    ["`GET /v1/reports/cost-changes?since=` (200 formulas)", "report"],
  ];
  for (const [label, id] of rows) {
    for (const [log, set] of [["empty", h.latency.logEmpty], ["full", h.latency.logFull], ["folded when quiet", h.latency.quietFolded]] as const) {
      const f = set?.[id];
      if (f) out.push(`| ${label} | ${f.requests} | ${log} | ${fixed(f.medianMs, 2)} | ${fixed(f.p90Ms, 2)} | ${fixed(f.maxMs, 2)} | ${f.medianMs < BOUND_MS ? "yes" : "**no**"} |`);
    }
  }
  out.push("", ...renderPostgresLatency(h, rows));
  out.push(
    "",
    `**Throughput with history against without it** (this tree compiled twice the same way, the baseline with SQLite's \`appendEntry\`, the one statement that writes ` +
      `a history entry, doing nothing; both serve identical copies of the file; wrk -t${WRK.threads} -c${WRK.connections}, ${WRK.seconds} s runs alternating ` +
      `with and without, ${WRK.reps} pairs). Each PUT changes a price, so the history build also writes a history entry; no webhook asks for ` +
      "`formula.cost_changed`, so none is computed (the default). The ratio is the median of the per-pair ratios, the range their spread. " +
      "KiB written per request is what the server process caused to be written to storage during the run (`/proc/<pid>/io` write_bytes: WAL frames and " +
      "checkpoints) and CPU µs per request the server's own processor time (`/proc/<pid>/stat`): two figures the shared machine's other load moves little. " +
      "It stays SQLite only: it compares two builds of the history write, not two stores (the PostgreSQL side of PUT is in the endpoint table).",
    "",
  );
  if (h.baselineNote) out.push(h.baselineNote, "");
  out.push(
    "| request | with history, req/s (median) | without, req/s (median) | ratio | pair ratios min–max | KiB written per request, with / without | CPU µs per request, with / without | runs with history | runs without |",
    "|---|---:|---:|---:|---|---:|---:|---|---|",
  );
  for (const t of h.throughput) {
    const list = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString("en-US")).join(", ");
    const median = (xs: number[]) => (xs.length ? Math.round(medianOf(xs)).toLocaleString("en-US") : "-");
    const pairs = t.baseline.map((b, i) => t.history[i]! / b);
    const spread = pairs.length ? `${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}` : "-";
    const pair = (sides: Sides) => sides.history.length ? `${medianOf(sides.history).toFixed(1)} / ${sides.baseline.length ? medianOf(sides.baseline).toFixed(1) : "-"}` : "-";
    const ratio = t.ratio === null ? "-" : `**${t.ratio.toFixed(2)}**`;
    out.push(`| \`${t.label}\` | ${median(t.history)} | ${median(t.baseline)} | ${ratio} | ${spread} | ${pair(t.kibPerRequest)} | ${pair(t.cpuUsPerRequest)} | ${list(t.history)} | ${list(t.baseline)} |`);
  }
  out.push("");
  return out;
}

/** The history reads on PostgreSQL beside SQLite's log-empty figures: same data, same requests, same run. */
function renderPostgresLatency(h: HistoryBench, rows: [string, keyof LatencySet][]): string[] {
  const pg = h.latency.postgres;
  if (!pg) return [`**PostgreSQL beside SQLite**: ${h.postgresNote ?? "not measured"}.`];
  const out = [
    "**PostgreSQL beside SQLite**: the same requests in the same run, right after the log-empty set, against `feedbase serve --database` on a copy " +
      "of that file (`feedbase copy-to`) in make bench's throwaway cluster. PostgreSQL keeps no price log (each entry goes straight into the indexed history), " +
      "so it has one figure per request, set beside SQLite's with the log empty (the same rows, all indexed); the ratio is of the medians:",
    "",
    "| request | requests | SQLite median ms (log empty) | PostgreSQL median ms | PostgreSQL p90 ms | PostgreSQL max ms | PostgreSQL ÷ SQLite | PostgreSQL median within the bound |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const [label, id] of rows) {
    const [lite, f] = [h.latency.logEmpty[id], pg[id]];
    out.push(
      `| ${label} | ${f.requests} | ${fixed(lite.medianMs, 2)} | ${fixed(f.medianMs, 2)} | ${fixed(f.p90Ms, 2)} | ${fixed(f.maxMs, 2)} | ` +
        `**${fixed(f.medianMs / lite.medianMs, 2)}** | ${f.medianMs < BOUND_MS ? "yes" : "**no**"} |`,
    );
  }
  return out;
}

if (import.meta.main) {
  const exe = process.argv[2] ?? join(ROOT, "dist", "feedbase");
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run make build`);
  const figures = await benchHistory(exe);
  const section = renderHistory(figures);
  process.stdout.write(section.join("\n") + "\n" + JSON.stringify(figures) + "\n");
  writeSection([...section.slice(0, -1), `(Section written by \`bun bench/history.ts\` alone on ${new Date().toISOString().slice(0, 16)}Z, after the make bench run above.)`, ""]);
}
