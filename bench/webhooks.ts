/**
 * Webhook delivery on SQLite and on PostgreSQL, in the same run on the same machine: end-to-end latency
 * and throughput, from a PUT's acknowledged response to the delivery's arrival at a loopback receiver.
 *
 * Run: `bun bench/webhooks.ts [--latency-puts N] [--throughput-puts N]` (make bench runs it from
 * bench/run.ts). The PostgreSQL side needs a cluster: FEEDBASE_TEST_PG_URL, which
 * test/postgres/cluster.sh sets (`test/postgres/cluster.sh bun bench/webhooks.ts`); without one only
 * SQLite is measured. Uses the executable named by FEEDBASE_EXE (bench/run.ts passes its copy), else
 * dist/feedbase if built, else the service and the commands in-process. Prints one JSON object
 * (`WebhookBench`, bench/webhooks-report.ts lays it out) on stdout; progress goes to stderr. Nothing is asserted: the figures are for reading.
 *
 * - Data: one SQLite file (200 ingredients, a key, one webhook to the receiver), copied into a new
 *   PostgreSQL database with `feedbase copy-to` (bench/postgres-copy.ts) before either side runs, so
 *   both serve the same data. Then `feedbase serve --data`, measured and stopped, then `feedbase serve
 *   --database`, measured the same way. Both deliver to the same receiver.
 * - Latency: PUTs one at a time, each waiting for its delivery, so no queue inflates the figure;
 *   `arrival − response` as seen by this process (both ends on its clock). It can be negative: the
 *   delivery may start before the response's last byte is read here.
 * - Throughput: PUTs from 32 concurrent clients over 200 ingredients (so per-ingredient ordering does
 *   not serialize them), deliveries per second from the first PUT to the last arrival; once with one
 *   webhook (at most 4 attempts in flight to it) and once with 8 (the global limit of 32 applies),
 *   the other 7 added by `feedbase webhook add` while the server runs.
 *
 * @example
 * // $ test/postgres/cluster.sh bun bench/webhooks.ts --latency-puts 30 --throughput-puts 200
 * // {"mode":"executable","latencyPuts":30,…,"sqlite":{"latencyP50Ms":…},"postgres":{"version":"15.…","figures":{…}}}
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { copyToPostgres, type PostgresCopy, type RunFeedbase } from "./postgres-copy.ts";
import { main as feedbaseMain } from "../cli/program.ts";
import { isoTime } from "../src/domain/time.ts";
import { createLogger } from "../src/log.ts";
import { startService, type RunningService } from "../src/service.ts";
import { openDatabase } from "../src/store/db.ts";
import { insertIngredient } from "../src/store/ingredient-changes.ts";
import { createKey } from "../src/store/keys.ts";
import type { DataLocation } from "../src/store/location.ts";
import { createWebhook } from "../src/store/webhooks.ts";
import { generateSecret } from "../src/webhooks/secret.ts";
import type { WebhookBench, WebhookFigures } from "./webhooks-report.ts";

const LATENCY_PUTS = 300;
const THROUGHPUT_PUTS = 2000;
const CLIENTS = 32;
const INGREDIENTS = 200;
const WIDE_WEBHOOKS = 8;
/** A side whose deliveries stop arriving fails instead of waiting for ever. */
const DELIVERY_DEADLINE_MS = 120_000;

const ROOT = join(import.meta.dir, "..");
const PG_ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL;
const progress = (msg: string) => process.stderr.write(`[webhooks] ${msg}\n`);

/** A loopback receiver that notes when each change arrived (by `ingredient@new_price`). */
function startArrivals() {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  let count = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const at = performance.now();
      const body = (await req.json()) as { ingredient: string; new_price: number };
      const change = `${body.ingredient}@${body.new_price}`;
      count++;
      if (!arrived.has(change)) arrived.set(change, at);
      waiters.get(change)?.();
      return new Response(null, { status: 204 });
    },
  });
  return {
    url: server.url.href,
    arrived,
    count: () => count,
    /** Resolves when `change` has arrived (at once if it already has). */
    waitFor(change: string): Promise<void> {
      if (arrived.has(change)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(change, resolve));
    },
    stop: () => server.stop(true),
  };
}

const EXE = process.env.FEEDBASE_EXE ?? (existsSync(join(ROOT, "dist", "feedbase")) ? join(ROOT, "dist", "feedbase") : null);

/** A `feedbase` command line: the executable's, or the program's in-process (its output dropped). */
const feedbase: RunFeedbase = async (argv) => {
  if (EXE === null) {
    let stderr = "";
    const io = { out: () => {}, err: (text: string) => void (stderr += text), stdin: async () => "", stdinIsTTY: false, env: process.env };
    return { code: await feedbaseMain(argv, io), stderr };
  }
  const proc = Bun.spawn([EXE, ...argv], { stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr };
};

/** The command-line option that names where `location`'s data is. */
const dataArgs = (location: DataLocation): string[] => (location.kind === "sqlite" ? ["--data", location.path] : ["--database", location.url]);

/** `feedbase serve` from the executable, or the service in-process; resolves to its base URL. */
async function startServer(location: DataLocation): Promise<{ url: string; stop(): Promise<void> }> {
  if (EXE === null) {
    const service: RunningService = await startService({ data: location, host: "127.0.0.1", port: 0, logger: createLogger(() => {}) });
    return { url: service.url.href.replace(/\/$/, ""), stop: () => service.stop() };
  }
  const proc = Bun.spawn([EXE, "serve", ...dataArgs(location), "--port", "0"], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let url = "";
  while (url === "") {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited before listening: ${text}`);
    text += decoder.decode(value, { stream: true });
    url = /"msg":"listening","url":"([^"]+)"/.exec(text)?.[1]?.replace(/\/$/, "") ?? "";
  }
  // Keep reading (and dropping) the log so the pipe never fills and stalls the server.
  const drain = (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      await drain;
    },
  };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;

interface Side {
  label: string;
  location: DataLocation;
  arrivals: ReturnType<typeof startArrivals>;
  key: string;
  names: string[];
  counts: { latencyPuts: number; throughputPuts: number };
  /** The next price to PUT: one sequence over both sides, so every change is told apart at the receiver. */
  nextPrice: () => number;
}

/** One backend: serve its data, warm up, then the latency and the two throughput runs; the server is stopped after. */
async function measureSide(side: Side): Promise<WebhookFigures> {
  const { arrivals, names, counts } = side;
  const sideStarted = performance.now();
  const server = await startServer(side.location);
  progress(`${side.label}: server at ${server.url}`);
  const put = async (name: string): Promise<{ change: string; respondedAt: number }> => {
    const p = side.nextPrice();
    const res = await fetch(`${server.url}/v1/prices/${encodeURIComponent(name)}`, { method: "PUT", headers: { "X-API-Key": side.key }, body: JSON.stringify({ price: p }) });
    const respondedAt = performance.now();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${side.label}: PUT answered ${res.status}`);
    return { change: `${name}@${p}`, respondedAt };
  };
  try {
    // Warm-up: connections, JIT, statement cache.
    for (let i = 0; i < 50; i++) await arrivals.waitFor((await put(names[i % INGREDIENTS]!)).change);

    progress(`${side.label}: latency, ${counts.latencyPuts} PUTs one at a time`);
    const latencies: number[] = [];
    for (let i = 0; i < counts.latencyPuts; i++) {
      const { change, respondedAt } = await put(names[i % INGREDIENTS]!);
      await arrivals.waitFor(change);
      latencies.push(arrivals.arrived.get(change)! - respondedAt);
    }
    latencies.sort((a, b) => a - b);

    const throughput = async (webhooks: number) => {
      progress(`${side.label}: throughput, ${counts.throughputPuts} PUTs from ${CLIENTS} clients, ${webhooks} webhook(s)`);
      const expected = arrivals.count() + counts.throughputPuts * webhooks;
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < counts.throughputPuts) await put(names[next++ % INGREDIENTS]!);
        }),
      );
      const putsSeconds = (performance.now() - started) / 1000;
      while (arrivals.count() < expected) {
        if (performance.now() - started > DELIVERY_DEADLINE_MS) throw new Error(`${side.label}: ${expected - arrivals.count()} deliveries still missing after ${DELIVERY_DEADLINE_MS / 1000} s`);
        await Bun.sleep(1);
      }
      const seconds = (performance.now() - started) / 1000;
      return { putsPerSecond: counts.throughputPuts / putsSeconds, deliveriesPerSecond: (counts.throughputPuts * webhooks) / seconds };
    };
    const one = await throughput(1);
    // The admin's command, while the server runs: it sees them from the next event on.
    for (let i = 1; i < WIDE_WEBHOOKS; i++) {
      const added = await feedbase(["webhook", "add", arrivals.url, ...dataArgs(side.location)]);
      if (added.code !== 0) throw new Error(`${side.label}: feedbase webhook add failed: ${added.stderr.trim()}`);
    }
    const wide = await throughput(WIDE_WEBHOOKS);
    return {
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      latencyMaxMs: round(latencies.at(-1)!),
      deliveriesPerSecond1Webhook: Math.round(one.deliveriesPerSecond),
      putsPerSecond1Webhook: Math.round(one.putsPerSecond),
      deliveriesPerSecond8Webhooks: Math.round(wide.deliveriesPerSecond),
      putsPerSecond8Webhooks: Math.round(wide.putsPerSecond),
      seconds: round((performance.now() - sideStarted) / 1000, 1),
    };
  } finally {
    await server.stop();
  }
}

/** A whole number of at least 1 from an option, else `fallback`. */
function count(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${option}: expected a whole number of at least 1, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { "latency-puts": { type: "string" }, "throughput-puts": { type: "string" } } });
  const counts = { latencyPuts: count(values["latency-puts"], "--latency-puts", LATENCY_PUTS), throughputPuts: count(values["throughput-puts"], "--throughput-puts", THROUGHPUT_PUTS) };
  const dir = mkdtempSync(join(tmpdir(), "feedbase-bench-webhooks-"));
  const dataPath = join(dir, "feedbase.db");
  const arrivals = startArrivals();
  const names = Array.from({ length: INGREDIENTS }, (_, i) => `Ingredient ${String(i).padStart(3, "0")}`);
  let postgres: PostgresCopy | null = null;
  try {
    // Data, key and the first webhook straight into the file, before anything serves it.
    const db = openDatabase(dataPath, { create: true });
    const now = isoTime(Date.now());
    db.transaction(() => {
      for (const name of names) insertIngredient(db, 1, { name, category: "Bench", price: 100, inStock: true, nutrients: {} }, "import", now);
    })();
    const { key } = createKey(db, { workspaceId: 1, write: true, rateLimit: 1_000_000, label: "bench", now });
    createWebhook(db, { workspaceId: 1, url: arrivals.url, secret: generateSecret(), events: ["price.updated"], now });
    db.close();

    if (PG_ADMIN_URL) {
      progress("copying the data file into PostgreSQL (feedbase copy-to)");
      postgres = await copyToPostgres(PG_ADMIN_URL, `feedbase_bench_webhooks_${process.pid}`, dataPath, feedbase);
    }
    let price = 100;
    const side = (label: string, location: DataLocation): Side => ({ label, location, arrivals, key, names, counts, nextPrice: () => ++price });
    const sqlite = await measureSide(side("SQLite", { kind: "sqlite", path: dataPath }));
    const pgFigures = postgres ? await measureSide(side("PostgreSQL", { kind: "postgres", url: postgres.url })) : null;
    const result: WebhookBench = {
      mode: EXE === null ? "in-process" : "executable",
      latencyPuts: counts.latencyPuts,
      throughputPuts: counts.throughputPuts,
      clients: CLIENTS,
      sqlite,
      postgres: postgres && pgFigures ? { version: postgres.version, figures: pgFigures } : null,
      postgresNote: postgres ? null : "no PostgreSQL cluster given (FEEDBASE_TEST_PG_URL): run through make bench or test/postgres/cluster.sh",
    };
    process.stdout.write(JSON.stringify(result) + "\n");
  } finally {
    await postgres?.drop();
    await arrivals.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
