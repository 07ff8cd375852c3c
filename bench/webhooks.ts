/**
 * Webhook delivery: end-to-end latency and throughput, from a PUT's acknowledged response to the
 * delivery's arrival at a loopback receiver.
 *
 * Run: `bun bench/webhooks.ts`. Uses the executable named by FEEDBASE_EXE (bench/run.ts passes its
 * copy), else dist/feedbase if built, else the service in-process. Prints one JSON object on stdout;
 * progress goes to stderr. Nothing is asserted: the figures are for reading.
 *
 * - Latency: PUTs one at a time, each waiting for its delivery, so no queue inflates the figure;
 *   `arrival − response` as seen by this process (both ends on its clock). It can be negative: the
 *   delivery may start before the response's last byte is read here.
 * - Throughput: PUTs from 32 concurrent clients over 200 ingredients (so per-ingredient ordering does
 *   not serialize them), deliveries per second from the first PUT to the last arrival; once with one
 *   webhook (at most 4 attempts in flight to it) and once with 8 (the global limit of 32 applies).
 *
 * @example
 * // $ bun bench/webhooks.ts
 * // {"mode":"executable","latencyPuts":300,"latencyP50Ms":…,"latencyP99Ms":…,"deliveriesPerSecond1Webhook":…,…}
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isoTime } from "../src/domain/time.ts";
import { createLogger } from "../src/log.ts";
import { startService, type RunningService } from "../src/service.ts";
import { openDatabase } from "../src/store/db.ts";
import { insertIngredient } from "../src/store/ingredient-changes.ts";
import { createKey } from "../src/store/keys.ts";
import { createWebhook } from "../src/store/webhooks.ts";
import { generateSecret } from "../src/webhooks/secret.ts";

const LATENCY_PUTS = 300;
const THROUGHPUT_PUTS = 2000;
const CLIENTS = 32;
const INGREDIENTS = 200;
const WIDE_WEBHOOKS = 8;

const ROOT = join(import.meta.dir, "..");
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

/** `feedbase serve` from an executable, or the service in-process; resolves to its base URL. */
async function startServer(dataPath: string): Promise<{ mode: string; url: string; stop(): Promise<void> }> {
  const exe = process.env.FEEDBASE_EXE ?? (existsSync(join(ROOT, "dist", "feedbase")) ? join(ROOT, "dist", "feedbase") : null);
  if (exe === null) {
    const service: RunningService = await startService({ data: { kind: "sqlite", path: dataPath }, host: "127.0.0.1", port: 0, logger: createLogger(() => {}) });
    return { mode: "in-process", url: service.url.href.replace(/\/$/, ""), stop: () => service.stop() };
  }
  const proc = Bun.spawn([exe, "serve", "--data", dataPath, "--port", "0"], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
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
    mode: "executable",
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "feedbase-bench-webhooks-"));
  const dataPath = join(dir, "feedbase.db");
  const arrivals = startArrivals();
  const names = Array.from({ length: INGREDIENTS }, (_, i) => `Ingredient ${String(i).padStart(3, "0")}`);

  // Data, key and the first webhook straight into the file, before the server starts.
  const db = openDatabase(dataPath, { create: true });
  const now = isoTime(Date.now());
  db.transaction(() => {
    for (const name of names) insertIngredient(db, 1, { name, category: "Bench", price: 100, inStock: true, nutrients: {} }, "import", now);
  })();
  const { key } = createKey(db, { workspaceId: 1, write: true, rateLimit: 1_000_000, label: "bench", now });
  const addWebhook = () => createWebhook(db, { workspaceId: 1, url: arrivals.url, secret: generateSecret(), events: ["price.updated"], now: isoTime(Date.now()) });
  addWebhook();

  const server = await startServer(dataPath);
  progress(`${server.mode} server at ${server.url}`);
  let price = 100;
  const put = async (name: string): Promise<{ change: string; respondedAt: number }> => {
    const p = ++price;
    const res = await fetch(`${server.url}/v1/prices/${encodeURIComponent(name)}`, { method: "PUT", headers: { "X-API-Key": key }, body: JSON.stringify({ price: p }) });
    const respondedAt = performance.now();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`PUT answered ${res.status}`);
    return { change: `${name}@${p}`, respondedAt };
  };

  try {
    // Warm-up: connections, JIT, statement cache.
    for (let i = 0; i < 50; i++) await arrivals.waitFor((await put(names[i % INGREDIENTS]!)).change);

    progress(`latency: ${LATENCY_PUTS} PUTs, one at a time`);
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_PUTS; i++) {
      const { change, respondedAt } = await put(names[i % INGREDIENTS]!);
      await arrivals.waitFor(change);
      latencies.push(arrivals.arrived.get(change)! - respondedAt);
    }
    latencies.sort((a, b) => a - b);

    const throughput = async (webhooks: number) => {
      progress(`throughput: ${THROUGHPUT_PUTS} PUTs from ${CLIENTS} clients, ${webhooks} webhook(s)`);
      const before = arrivals.count();
      const expected = before + THROUGHPUT_PUTS * webhooks;
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < THROUGHPUT_PUTS) await put(names[next++ % INGREDIENTS]!);
        }),
      );
      const putsSeconds = (performance.now() - started) / 1000;
      while (arrivals.count() < expected) await Bun.sleep(1);
      const seconds = (performance.now() - started) / 1000;
      return { seconds, putsPerSecond: THROUGHPUT_PUTS / putsSeconds, deliveriesPerSecond: (THROUGHPUT_PUTS * webhooks) / seconds };
    };
    const one = await throughput(1);
    // The running server sees webhooks added to its file from the next event on.
    for (let i = 1; i < WIDE_WEBHOOKS; i++) addWebhook();
    const wide = await throughput(WIDE_WEBHOOKS);

    process.stdout.write(
      JSON.stringify({
        mode: server.mode,
        latencyPuts: LATENCY_PUTS,
        latencyP50Ms: round(percentile(latencies, 50)),
        latencyP99Ms: round(percentile(latencies, 99)),
        latencyMaxMs: round(latencies.at(-1)!),
        throughputPuts: THROUGHPUT_PUTS,
        clients: CLIENTS,
        deliveriesPerSecond1Webhook: Math.round(one.deliveriesPerSecond),
        putsPerSecond1Webhook: Math.round(one.putsPerSecond),
        deliveriesPerSecond8Webhooks: Math.round(wide.deliveriesPerSecond),
        putsPerSecond8Webhooks: Math.round(wide.putsPerSecond),
      }) + "\n",
    );
  } finally {
    await server.stop();
    await arrivals.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
