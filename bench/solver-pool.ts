/**
 * The solver pool under load (issue 26; docs/decisions.md#solver-pool), on the compiled executable with
 * its default pool (one worker per core but one):
 *
 * 1. GET /v1/health p99 (sequential requests) with the solver idle, and while 4 large solves are in
 *    flight (4 distinct optimizations of a generated 60-candidate formula whose solves take about a
 *    second each, kept in flight: each that ends is replaced). Target: loaded p99 within 2× of idle.
 * 2. GET /v1/ingredients/:name throughput (wrk) idle and under the same load. Target: ≥ 0.8.
 * 1b, 2b. The control: both figures again while the CPU the pool takes (one busy thread per worker) is
 *    taken by a process that is not feedbase and does nothing but spin, at the priority the workers
 *    run at (SCHED_IDLE, `chrt --idle`). A server that gives its solves the CPU the event loop leaves
 *    cannot do better beside them than beside that loop: its ratios are this machine's floor.
 * 3. The server's RSS idle and its peak under the load (sampled every 50 ms), against the bound stated
 *    in docs/operations.md.
 * 3b. The event loop's CPU per large optimize: the server's main thread's CPU time (/proc) while the
 *    load alone runs, less its idle rate, over the optimizations answered. The machine's other load
 *    barely moves it (it is CPU time, not waiting), so it is the figure to compare builds by.
 * 4. The 60 × 30 formula of bench/optimize.ts through a pool of one worker against the same task
 *    in-process, each to the opening of its HTTP answer as the route makes it (in-process: the result
 *    serialized on this thread; through the pool: the input's bulk as the JSON text the route keeps
 *    between requests, the what-ifs beside it, and the worker's JSON text put in the envelope), so the
 *    ratio is the hop's cost (two messages, the text parsed in the worker, the text back), both timed
 *    once warm (HOP_WARM_UP). Each path's warm speed differs between processes (JavaScriptCore compiles
 *    each HiGHS as it runs), so this is done in HOP_PROCESSES fresh processes (`--hop`), and the figure
 *    is the median of their ratios. Target: ≤ 1.2×.
 * 5. A worker replaced: a pool of one whose time limit (1 ms) every 60 × 30 solve passes, so each task
 *    ends its worker; the time from that task's 503 to the new worker ready, REPLACEMENTS times.
 *
 * Idle, loaded and control phases take turns, 3 of each; figures are medians over phases. Run alone:
 * `bun bench/solver-pool.ts [dist/feedbase]` writes its section of bench/RESULTS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importFormulas, importIngredients } from "../src/admin/imports.ts";
import { seedDemo } from "../src/demo/seed.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { openBody, openBodyJson } from "../src/http/envelope.ts";
import { createLogger } from "../src/log.ts";
import { optimizeInput, whatIfInput } from "../src/optimize/optimize-task.ts";
import { defaultPoolSize, SolverPool } from "../src/optimize/pool.ts";
import { NO_OPTIONS } from "../src/optimize/result.ts";
import { SolverUnavailable } from "../src/optimize/solver-errors.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { openDatabase } from "../src/store/db.ts";
import { createKey } from "../src/store/keys.ts";
import { largeFormula } from "../test/helpers/large-formula.ts";
import { medianOf, quantile, serve, stop, wrk, type Server } from "./history.ts";
import { largeFormula as benchFormula } from "./optimize.ts";
import { writeSection } from "./results-file.ts";
import { memoryKiB, processTicks, TICKS_PER_SECOND, waitForIdle } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
const HEADING = "## Solver pool under load";
const PHASES = 3;
/** Its p99 is the 15th slowest; of 400 (the 4th), the idle figure alone ranged 0.31–1.07 ms between runs. */
const HEALTH_REQUESTS = 1500;
const IN_FLIGHT = 4;
const HOP_SOLVES = 60;
/** One process's ratio read 0.97 and 1.41 × in two runs of the same build. */
const HOP_PROCESSES = 3;
const REPLACEMENTS = 10;
/**
 * Solves of each path (at once) before any is timed. Each HiGHS, the worker's and this thread's, tiers up
 * as it runs: measured alone, either path's median per 25 solves fell for about 75 solves (13–20 ms to
 * 4–7 ms), and after 5 the ratio read anything from 1.0 to 2.7.
 */
const HOP_WARM_UP = 120;
/** How long the event loop's CPU is counted, idle and under the load alone. */
const EVENT_LOOP_MS = 5000;
/** The stated bound on the server's RSS with 4 large solves in flight (docs/operations.md). */
export const RSS_BOUND_MIB = 400;
const LOAD = largeFormula({ candidates: 60, nutrients: 30, limits: 30, ratios: 10 });
const progress = (msg: string) => process.stderr.write(`[bench solver-pool] ${msg}\n`);

export interface PoolBench {
  healthP99Ms: { idle: number[]; loaded: number[]; control: number[] };
  ingredientRps: { idle: number[]; loaded: number[]; control: number[] };
  rssMiB: { idle: number; peakLoaded: number };
  solvesDuringLoad: number;
  /** The server's main thread's CPU per large optimize, ms (its idle rate taken off). */
  eventLoopMsPerOptimize: number;
  /** Per process: the two paths' medians. */
  hopMs: { inProcess: number; pool: number }[];
  /** From a task failed at the time limit to its worker's successor ready, ms. */
  replacementMs: number[];
  /** Rounds (idle, loaded, control) that started with the machine busy (other work on it). */
  busyStarts: number;
}

export function prepare(tmp: string): { dataPath: string; keys: string[] } {
  const dataPath = join(tmp, "pool.db");
  const db = openDatabase(dataPath, { create: true });
  try {
    const now = new Date().toISOString();
    seedDemo(db, now);
    const ingredients = LOAD.ingredients.map(({ name, category, price, inStock, nutrients }) => ({ name, category, price, inStock, nutrients }));
    importIngredients(db, 1, JSON.stringify(ingredients), "json", { update: false, now });
    const { id: _, ...formula } = LOAD.formula;
    importFormulas(db, 1, readFormulaFile(JSON.stringify([{ id: "load", ...formula }])), { replace: false, now });
    const keys = Array.from({ length: 2 + PHASES * 3 }, () => createKey(db, { workspaceId: 1, write: false, rateLimit: 1_000_000, label: "bench pool", now }).key);
    return { dataPath, keys };
  } finally {
    db.close();
  }
}

/** Keeps IN_FLIGHT distinct large optimizations in flight until `stop`, sampling the server's RSS. */
export function startLoad(server: Server, key: string) {
  let stopped = false;
  let price = 100;
  let solved = 0;
  let peakKiB = 0;
  const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, memoryKiB(server.proc.pid, "VmRSS"))), 50);
  const lane = async () => {
    while (!stopped) {
      const res = await fetch(`${server.url}/v1/formulas/load/optimize?price=Large%200%3D${(price += 0.01).toFixed(2)}`, { headers: { "X-API-Key": key } });
      await res.arrayBuffer();
      // A solve slowed past the time limit by the machine's other load still loaded the server.
      if (res.status !== 200 && res.status !== 503) throw new Error(`a load solve answered ${res.status}`);
      solved++;
    }
  };
  const lanes = Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return {
    /** Optimizations answered so far. */
    answered: () => solved,
    async stop(): Promise<{ solved: number; peakKiB: number }> {
      stopped = true;
      await lanes;
      clearInterval(sampler);
      return { solved, peakKiB };
    },
  };
}

/** The control's load (1b, 2b): one busy loop per pool worker, each a process of its own at SCHED_IDLE. */
function startSpin(): { stop(): Promise<void> } {
  const loops = Array.from({ length: defaultPoolSize() }, () => Bun.spawn(["chrt", "--idle", "0", process.execPath, "-e", "for (;;);"], { stdio: ["ignore", "ignore", "ignore"] }));
  return {
    async stop() {
      for (const loop of loops) loop.kill();
      await Promise.all(loops.map((loop) => loop.exited));
    },
  };
}

export async function untilBusy(server: Server): Promise<void> {
  for (;;) {
    const pool = (await fetch(server.url + "/readyz")).headers.get("x-solver-pool") ?? "";
    if (/busy=[1-9]/.test(pool)) return;
    await Bun.sleep(20);
  }
}

/** The event loop's CPU per large optimize: its main thread's ticks under the load alone, less its idle rate. */
async function eventLoopPerOptimize(server: Server, key: string): Promise<number> {
  const ms = () => (processTicks(server.proc.pid, server.proc.pid) * 1000) / TICKS_PER_SECOND;
  let [before, answered] = [ms(), 0];
  await Bun.sleep(EVENT_LOOP_MS);
  const idleRate = (ms() - before) / EVENT_LOOP_MS;
  const load = startLoad(server, key);
  await untilBusy(server);
  [before, answered] = [ms(), load.answered()];
  const started = performance.now();
  await Bun.sleep(EVENT_LOOP_MS);
  const used = ms() - before - idleRate * (performance.now() - started);
  answered = load.answered() - answered;
  await load.stop();
  return used / answered;
}

async function healthP99(server: Server, key: string): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < HEALTH_REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(server.url + "/v1/health", { headers: { "X-API-Key": key } });
    await res.arrayBuffer();
    ms.push(performance.now() - started);
  }
  return quantile(ms, 0.99);
}

/** The 60 × 30 formula's optimize input (items 4 and 5), and a pool of one worker that logs nothing. */
function hopSetUp(timeoutMs: number) {
  const { formula, lookup } = benchFormula();
  return { input: optimizeInput(formula, lookup, NO_OPTIONS), pool: new SolverPool({ size: 1, timeoutMs, maxQueue: 4, logger: createLogger(() => {}) }) };
}

/** The 60 × 30 answer's body through one worker and in-process, alternating, after a warm-up of each. */
async function hop(): Promise<{ inProcess: number[]; pool: number[] }> {
  const { input, pool } = hopSetUp(60_000);
  const inProcess = async () => openBody(await solveInProcess("optimize", input));
  // What src/http/routes/optimize.ts sends: the bulk kept as text (made once), the what-ifs cloned.
  const base = JSON.stringify({ formula: input.formula, ingredients: input.ingredients, include: input.include });
  const pooled = async () => openBodyJson(await pool.runJsonOver("optimize", base, whatIfInput(NO_OPTIONS)));
  try {
    const out = { inProcess: [] as number[], pool: [] as number[] };
    for (let i = 0; i < HOP_WARM_UP; i++) await Promise.all([pooled(), inProcess()]);
    for (let i = 0; i < HOP_SOLVES; i++) {
      let started = performance.now();
      await inProcess();
      out.inProcess.push(performance.now() - started);
      started = performance.now();
      await pooled();
      out.pool.push(performance.now() - started);
    }
    return out;
  } finally {
    pool.close();
  }
}

/** `hop()` in a fresh process (this file with `--hop`): its two medians. */
async function hopInProcessOfItsOwn(): Promise<PoolBench["hopMs"][number]> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--hop"], { stdout: "pipe", stderr: "inherit" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`bench/solver-pool.ts --hop exited ${code}`);
  return JSON.parse(out) as PoolBench["hopMs"][number];
}

/** Each time limit's replacement, timed from the task's failure to the new worker ready (item 5). */
async function replacements(): Promise<number[]> {
  const { input, pool } = hopSetUp(1);
  const ready = async () => {
    while (pool.stats().alive < 1) await Bun.sleep(0);
  };
  try {
    pool.start();
    await ready();
    const out: number[] = [];
    for (let i = 0; i < REPLACEMENTS; i++) {
      const failed = await pool.run("optimize", input).then(
        () => null,
        (error: unknown) => error,
      );
      if (!(failed instanceof SolverUnavailable)) throw new Error(`a solve was to pass the 1 ms time limit: ${String(failed)}`);
      const started = performance.now();
      await ready();
      out.push(performance.now() - started);
    }
    return out;
  } finally {
    pool.close();
  }
}

/**
 * @example const figures = await benchSolverPool("dist/feedbase")
 */
export async function benchSolverPool(exe: string): Promise<PoolBench> {
  if (!Bun.which("wrk")) throw new Error("wrk is missing: make bench installs it (bench/run.ts), or apt-get install wrk");
  if (!Bun.which("chrt")) throw new Error("chrt is missing: apt-get install util-linux");
  const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-pool-"));
  const { dataPath, keys } = prepare(tmp);
  const server = await serve(exe, dataPath, keys[0]!, "--data");
  try {
    const pathsFile = join(tmp, "paths.txt");
    const keysFile = join(tmp, "keys.txt");
    writeFileSync(pathsFile, "/v1/ingredients/Maize\n");
    const figures: PoolBench = { healthP99Ms: { idle: [], loaded: [], control: [] }, ingredientRps: { idle: [], loaded: [], control: [] }, rssMiB: { idle: 0, peakLoaded: 0 }, solvesDuringLoad: 0, eventLoopMsPerOptimize: 0, hopMs: [], replacementMs: [], busyStarts: 0 };
    await untilLoaded(server, keys[0]!);
    figures.rssMiB.idle = memoryKiB(server.proc.pid, "VmRSS") / 1024;
    let base = 1000;
    for (let phase = 0; phase < PHASES; phase++) {
      progress(`phase ${phase + 1} of ${PHASES}: idle`);
      // The machine is shared: each round starts at as quiet a moment as a few seconds find.
      if (!(await waitForIdle(3000)).idle) figures.busyStarts++;
      figures.healthP99Ms.idle.push(await healthP99(server, keys[0]!));
      writeFileSync(keysFile, keys[2 + phase * 3]! + "\n");
      figures.ingredientRps.idle.push((await wrk(server.url, "GET", pathsFile, keysFile, (base += 10_000))).rate);
      progress(`phase ${phase + 1} of ${PHASES}: ${IN_FLIGHT} large solves in flight`);
      const load = startLoad(server, keys[1]!);
      await untilBusy(server);
      figures.healthP99Ms.loaded.push(await healthP99(server, keys[0]!));
      writeFileSync(keysFile, keys[3 + phase * 3]! + "\n");
      figures.ingredientRps.loaded.push((await wrk(server.url, "GET", pathsFile, keysFile, (base += 10_000))).rate);
      const { solved, peakKiB } = await load.stop();
      figures.solvesDuringLoad += solved;
      figures.rssMiB.peakLoaded = Math.max(figures.rssMiB.peakLoaded, peakKiB / 1024);
      progress(`phase ${phase + 1} of ${PHASES}: the control, ${defaultPoolSize()} busy loop(s) at SCHED_IDLE beside the server`);
      const spin = startSpin();
      try {
        figures.healthP99Ms.control.push(await healthP99(server, keys[0]!));
        writeFileSync(keysFile, keys[4 + phase * 3]! + "\n");
        figures.ingredientRps.control.push((await wrk(server.url, "GET", pathsFile, keysFile, (base += 10_000))).rate);
      } finally {
        await spin.stop();
      }
    }
    progress("the event loop's CPU per large optimize");
    figures.eventLoopMsPerOptimize = await eventLoopPerOptimize(server, keys[1]!);
    await stop(server);
    for (let i = 0; i < HOP_PROCESSES; i++) {
      progress(`the 60 × 30 answer, ${HOP_SOLVES} times through one worker and in-process, process ${i + 1} of ${HOP_PROCESSES}`);
      await waitForIdle(3000);
      figures.hopMs.push(await hopInProcessOfItsOwn());
    }
    progress(`a worker replaced at the time limit, ${REPLACEMENTS} times`);
    figures.replacementMs = await replacements();
    return figures;
  } finally {
    if (server.proc.exitCode === null) await stop(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The server answers and its workers have loaded HiGHS (one optimization answered). */
export async function untilLoaded(server: Server, key: string): Promise<void> {
  const res = await fetch(server.url + "/v1/formulas/broiler-starter/optimize", { headers: { "X-API-Key": key } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the first optimization answered ${res.status}`);
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

/** The RESULTS.md section. @example renderSolverPool(await benchSolverPool(exe)).join("\n") */
export function renderSolverPool(b: PoolBench): string[] {
  const health = { idle: medianOf(b.healthP99Ms.idle), loaded: medianOf(b.healthP99Ms.loaded), control: medianOf(b.healthP99Ms.control) };
  const rps = { idle: medianOf(b.ingredientRps.idle), loaded: medianOf(b.ingredientRps.loaded), control: medianOf(b.ingredientRps.control) };
  const hopRatios = b.hopMs.map((h) => h.pool / h.inProcess);
  const hopRatio = medianOf(hopRatios);
  const verdict = (ok: boolean) => (ok ? "within the target" : "OUTSIDE the target");
  return [
    HEADING,
    "",
    `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/solver-pool.ts\` on a shared ${navigator.hardwareConcurrency}-core machine (dist/feedbase, default pool: one worker per core but one; ${PHASES} rounds of an idle, a loaded and a control phase, medians over phases; figures are for reading, not asserted). Load: ${IN_FLIGHT} distinct optimizations of a generated 60-candidate formula (about a second each) kept in flight; ${b.solvesDuringLoad} answered during the loaded phases. Control: ${defaultPoolSize()} busy loop(s) that are not feedbase, one per worker, at the workers' priority (SCHED_IDLE): what giving solves the CPU the event loop leaves costs on this machine at best. ${b.busyStarts} of ${PHASES} rounds started with the machine busy with other work.`,
    "",
    "| figure | idle | 4 large solves in flight | ratio | control: busy loop(s) at SCHED_IDLE | its ratio (the floor) | target |",
    "|---|---:|---:|---:|---:|---:|---|",
    `| GET /v1/health p99 (${HEALTH_REQUESTS} sequential), ms | ${f2(health.idle)} | ${f2(health.loaded)} | ${f2(health.loaded / health.idle)} | ${f2(health.control)} | ${f2(health.control / health.idle)} | ≤ 2, ${verdict(health.loaded <= 2 * health.idle)} |`,
    `| GET /v1/ingredients/Maize (wrk), requests/s | ${Math.round(rps.idle)} | ${Math.round(rps.loaded)} | ${f2(rps.loaded / rps.idle)} | ${Math.round(rps.control)} | ${f2(rps.control / rps.idle)} | ≥ 0.8, ${verdict(rps.loaded >= 0.8 * rps.idle)} |`,
    `| server RSS, MiB (loaded: the peak) | ${f1(b.rssMiB.idle)} | ${f1(b.rssMiB.peakLoaded)} | ${f2(b.rssMiB.peakLoaded / b.rssMiB.idle)} | | | ≤ ${RSS_BOUND_MIB} MiB, ${verdict(b.rssMiB.peakLoaded <= RSS_BOUND_MIB)} |`,
    "",
    `The event loop's CPU per large optimize (the server's main thread, /proc, under the load alone, its idle rate taken off): ${f2(b.eventLoopMsPerOptimize)} ms.`,
    "",
    `The 60 × 30 answer (bench/optimize.ts's formula) to its HTTP body, ${HOP_SOLVES} times each, alternating, in ${b.hopMs.length} fresh processes: in-process medians ${b.hopMs.map((h) => f2(h.inProcess)).join(", ")} ms, through a pool of one worker ${b.hopMs.map((h) => f2(h.pool)).join(", ")} ms; ratios ${hopRatios.map(f2).join(", ")}, median ${f2(hopRatio)} × (target ≤ 1.2, ${verdict(hopRatio <= 1.2)}).`,
    "",
    `A worker replaced at the time limit (a pool of one, 1 ms limit), ${b.replacementMs.length} times: from the task's 503 to the new worker ready, median ${f1(medianOf(b.replacementMs))} ms (${f1(Math.min(...b.replacementMs))}–${f1(Math.max(...b.replacementMs))}).`,
  ];
}

if (import.meta.main && process.argv[2] === "--hop") {
  const { inProcess, pool } = await hop();
  process.stdout.write(JSON.stringify({ inProcess: medianOf(inProcess), pool: medianOf(pool) }));
  process.exit(0);
} else if (import.meta.main) {
  const exe = process.argv[2] ?? join(ROOT, "dist", "feedbase");
  const section = renderSolverPool(await benchSolverPool(exe));
  process.stdout.write(section.join("\n") + "\n");
  writeSection(section);
  process.exit(0);
}
