/**
 * Where the server's memory goes (issue 29, point 5): the resident memory of `feedbase serve` idle and
 * at the peak of each load that fills one part, beside what that part says it holds (/metrics):
 *
 * 1. the rate limiter: cached ingredient reads with one million-per-hour key (wrk), so its ring keeps
 *    every accepted request of the run (`feedbase_rate_limiter_bytes`);
 * 2. the read caches: distinct `GET /v1/prices?at=…` over 3,000 ingredients, each a new body
 *    (`feedbase_read_cache_bytes{cache}`, bounded at 64 + 8 + 1 MiB);
 * 3. the solver pool: 4 large optimizations kept in flight (HiGHS's memory lives in the workers; no
 *    gauge, so its part is the RSS it adds).
 * Each part's bound is stated beside its figure. Run alone: `bun bench/memory.ts [dist/feedbase]`
 * writes its section of bench/RESULTS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateIngredients, SEED, seedIngredients } from "./dataset.ts";
import { serve, stop, wrk, type Server } from "./history.ts";
import { writeSection } from "./results-file.ts";
import { prepare, startLoad, untilBusy, untilLoaded } from "./solver-pool.ts";
import { memoryKiB } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
const HEADING = "## Memory by part";
const INGREDIENTS = 3_000;
const DISTINCT_AT = 1_500;
const SOLVE_SECONDS = 10;
const MiB = 1024 * 1024;
const progress = (msg: string) => process.stderr.write(`[bench memory] ${msg}\n`);

interface Reading {
  rssMiB: number;
  limiterMiB: number;
  cacheMiB: number;
}

interface Phase {
  name: string;
  load: string;
  before: Reading;
  after: Reading;
  peakRssMiB: number;
  bound: string;
}

export interface MemoryBench {
  idle: Reading;
  phases: Phase[];
  peakMiB: number;
}

async function read(server: Server): Promise<Reading> {
  const text = await (await fetch(server.url + "/metrics")).text();
  const sum = (name: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith(name + " ") || l.startsWith(name + "{"))
      .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
  return { rssMiB: memoryKiB(server.proc.pid, "VmRSS") / 1024, limiterMiB: sum("feedbase_rate_limiter_bytes") / MiB, cacheMiB: sum("feedbase_read_cache_bytes") / MiB };
}

/** Runs `work` while sampling the server's RSS every 50 ms; the readings before and after and the peak. */
async function phase(server: Server, name: string, load: string, bound: string, work: () => Promise<void>): Promise<Phase> {
  progress(name);
  const before = await read(server);
  let peakKiB = 0;
  const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, memoryKiB(server.proc.pid, "VmRSS"))), 50);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const after = await read(server);
  return { name, load, before, after, peakRssMiB: Math.max(peakKiB / 1024, after.rssMiB), bound };
}

/** `count` distinct `at`s, `lanes` requests in flight. */
async function distinctPrices(server: Server, key: string, count: number, lanes: number): Promise<void> {
  let next = 0;
  const base = Date.parse("2026-01-06T00:00:00Z");
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await fetch(`${server.url}/v1/prices?at=${new Date(base + i * 60_000).toISOString()}`, { headers: { "X-API-Key": key } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /v1/prices?at= answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** @example const figures = await benchMemory("dist/feedbase") */
export async function benchMemory(exe: string): Promise<MemoryBench> {
  if (!Bun.which("wrk")) throw new Error("wrk is missing: make bench installs it (bench/run.ts), or apt-get install wrk");
  const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-memory-"));
  const { dataPath, keys } = prepare(tmp);
  seedIngredients(dataPath, generateIngredients(INGREDIENTS, SEED));
  const server = await serve(exe, dataPath, keys[0]!, "--data", ["--metrics", "on"]);
  try {
    await untilLoaded(server, keys[0]!);
    const idle = await read(server);
    const pathsFile = join(tmp, "paths.txt");
    const keysFile = join(tmp, "keys.txt");
    writeFileSync(pathsFile, "/v1/ingredients/Maize\n");
    writeFileSync(keysFile, keys[2]! + "\n");
    const phases: Phase[] = [];
    let requests = 0;
    phases.push(
      await phase(server, "rate limiter", "", "8 bytes × each key's limit (here 1,000,000: 7.6 MiB), a key idle for an hour dropped", async () => {
        requests = (await wrk(server.url, "GET", pathsFile, keysFile, 1000)).requests;
      }),
    );
    phases[0]!.load = `${requests.toLocaleString("en-US")} cached GET /v1/ingredients/Maize with one key (wrk)`;
    phases.push(
      await phase(server, "read caches", `${DISTINCT_AT.toLocaleString("en-US")} distinct GET /v1/prices?at=… over ${INGREDIENTS.toLocaleString("en-US")} ingredients, 8 in flight`, "64 MiB bodies + 8 MiB answered requests + 1 MiB keys", () =>
        distinctPrices(server, keys[3]!, DISTINCT_AT, 8),
      ),
    );
    let solved = 0;
    phases.push(
      await phase(server, "solver pool", "", "400 MiB for the whole server with 4 large solves in flight (docs/operations.md)", async () => {
        const load = startLoad(server, keys[1]!);
        await untilBusy(server);
        await Bun.sleep(SOLVE_SECONDS * 1000);
        solved = (await load.stop()).solved;
      }),
    );
    phases[2]!.load = `4 large optimizations (60 candidates) kept in flight for ${SOLVE_SECONDS} s, ${solved} answered`;
    return { idle, phases, peakMiB: memoryKiB(server.proc.pid, "VmHWM") / 1024 };
  } finally {
    await stop(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

const f1 = (x: number) => x.toFixed(1);

/** The RESULTS.md section. @example renderMemory(await benchMemory(exe)).join("\n") */
export function renderMemory(b: MemoryBench): string[] {
  const part = (p: Phase) => (p.name === "rate limiter" ? [p.before.limiterMiB, p.after.limiterMiB] : p.name === "read caches" ? [p.before.cacheMiB, p.after.cacheMiB] : [NaN, NaN]);
  return [
    HEADING,
    "",
    `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/memory.ts\` (dist/feedbase serve with /metrics on, the demo plus ${INGREDIENTS.toLocaleString("en-US")} generated ingredients; the loads run one after the other, so each part's growth is seen on its own). Idle after the first optimization: RSS ${f1(b.idle.rssMiB)} MiB, rate limiter ${f1(b.idle.limiterMiB)} MiB, read caches ${f1(b.idle.cacheMiB)} MiB. Peak RSS over the run (VmHWM): ${f1(b.peakMiB)} MiB.`,
    "",
    "RSS grows by more than a part holds: what a load made and let go (evicted bodies, answers sent) stays resident until the collector and the allocator return it, so the RSS column is an upper bound of each part's cost and the part's own figure its floor.",
    "",
    "| part | load | part's own figure before → after, MiB | RSS before → peak, MiB | bound |",
    "|---|---|---|---|---|",
    ...b.phases.map((p) => {
      const [from, to] = part(p);
      const own = Number.isNaN(from!) ? "no gauge: in the workers' HiGHS heaps" : `${f1(from!)} → ${f1(to!)}`;
      return `| ${p.name} | ${p.load} | ${own} | ${f1(p.before.rssMiB)} → ${f1(p.peakRssMiB)} (+${f1(p.peakRssMiB - p.before.rssMiB)}) | ${p.bound} |`;
    }),
  ];
}

if (import.meta.main) {
  const exe = process.argv[2] ?? join(ROOT, "dist", "feedbase");
  const section = renderMemory(await benchMemory(exe));
  process.stdout.write(section.join("\n") + "\n");
  writeSection(section);
  process.exit(0);
}
