/**
 * The physical limit for writes: bun:sqlite committing the same write as `PUT /v1/prices/:name`
 * (UPDATE of an ingredient's price + INSERT of its `price.updated` event, one transaction, WAL,
 * `synchronous=FULL`, so one fsync per commit) as fast as it can, with nothing else around it.
 *
 * Two shapes, both one commit per write:
 * - `--writers 1`: one loop in one thread, back to back: the most commits per second the disk allows.
 * - `--writers N`: N worker threads, each with its own connection, like N clients each with one
 *   request outstanding. They take turns through a FIFO queue lock (no SQLite busy-wait sleeps,
 *   which would make the baseline slower than a good server), so each write's latency is its wait
 *   in line plus its commit: the least a one-commit-per-request server can do under N clients.
 *
 * Run: `bun bench/bare-commit.ts --data <file> --writers <n> --seconds <s>`; prints one JSON object:
 * `{ writers, commits, seconds, commitsPerSec, p50Ms, p99Ms }`. The data file must hold the
 * benchmark's ingredients (bench/dataset.ts); pass a copy, it gains one event per commit.
 */
import { Database } from "bun:sqlite";
import { parseArgs } from "node:util";

interface WriterSetup {
  data: string;
  index: number;
  writers: number;
  lock: SharedArrayBuffer;
}

type Writer = ReturnType<typeof openWriter>;

/** One connection with the product's settings (src/store/db.ts) and the write of a price PUT. */
function openWriter(data: string) {
  const db = new Database(data, { readwrite: true, strict: true });
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = FULL");
  const names = (db.query("SELECT name FROM ingredients WHERE workspace_id = 1 ORDER BY id").all() as { name: string }[]).map((r) => r.name);
  if (names.length === 0) throw new Error(`no ingredients in ${data}: seed it with bench/dataset.ts`);
  const update = db.query("UPDATE ingredients SET price = ?, in_stock = 1, updated_at = ? WHERE workspace_id = 1 AND name = ?");
  // The event's number as the product's store gives it (src/store/sqlite/events.ts): the workspace's highest plus one.
  const insert = db.query(
    "INSERT INTO events (workspace_id, number, type, ingredient, payload, key_id, created_at) VALUES (1, (SELECT coalesce(max(number), 0) + 1 FROM events WHERE workspace_id = 1), 'price.updated', ?, ?, NULL, ?)",
  );
  const write = db.transaction((name: string, price: number) => {
    const now = new Date().toISOString();
    update.run(price, now, name);
    insert.run(name, JSON.stringify({ ingredient: name, old_price: price - 0.01, new_price: price, timestamp: now }), now);
  });
  return { names, commit: (n: number, price: number) => write.immediate(names[n % names.length]!, price), close: () => db.close() };
}

/** Commit until `deadline` (Date.now ms), taking turns through the queue lock when there are several writers; each write's latency in ms. */
function commitLoop(writer: Writer, setup: WriterSetup, deadline: number): number[] {
  // Anderson queue lock: slot t is 1 when ticket t may enter; tickets are taken in order, so turns are FIFO.
  const slots = new Int32Array(setup.lock);
  const latencies: number[] = [];
  let n = 0;
  while (Date.now() < deadline) {
    const started = performance.now();
    let slot = -1;
    if (setup.writers > 1) {
      slot = 1 + (Atomics.add(slots, 0, 1) % setup.writers);
      while (Atomics.load(slots, slot) === 0) Atomics.wait(slots, slot, 0);
      Atomics.store(slots, slot, 0);
    }
    writer.commit(n * setup.writers + setup.index, 1000 + (n * setup.writers + setup.index) / 100);
    if (slot !== -1) {
      const nextSlot = 1 + (slot % setup.writers);
      Atomics.store(slots, nextSlot, 1);
      Atomics.notify(slots, nextSlot, 1);
    }
    latencies.push(performance.now() - started);
    n++;
  }
  return latencies;
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: "string" }, writers: { type: "string", default: "1" }, seconds: { type: "string", default: "5" } } });
  const writers = Number(values.writers);
  const seconds = Number(values.seconds);
  if (!values.data || !(writers >= 1) || !(seconds > 0)) {
    process.stderr.write("usage: bun bench/bare-commit.ts --data <file> --writers <n> --seconds <s>\n");
    process.exit(2);
  }
  const lock = new SharedArrayBuffer(4 * (writers + 1));
  new Int32Array(lock)[1] = 1;
  let latencies: number[];
  let started: number;
  if (writers === 1) {
    const writer = openWriter(values.data);
    started = Date.now();
    latencies = commitLoop(writer, { data: values.data, index: 0, writers, lock }, started + seconds * 1000);
    writer.close();
  } else {
    // Start every worker, wait until all have opened their connection, then give them one deadline.
    const workers = Array.from({ length: writers }, () => new Worker(import.meta.path));
    const ready = workers.map((w) => new Promise<void>((resolve) => w.addEventListener("message", () => resolve(), { once: true })));
    workers.forEach((w, index) => w.postMessage({ setup: { data: values.data, index, writers, lock } }));
    await Promise.all(ready);
    started = Date.now();
    const results = workers.map((w) => new Promise<number[]>((resolve) => w.addEventListener("message", (e: MessageEvent) => resolve(e.data as number[]), { once: true })));
    workers.forEach((w) => w.postMessage({ deadline: started + seconds * 1000 }));
    latencies = (await Promise.all(results)).flat();
    workers.forEach((w) => w.terminate());
  }
  const elapsed = (Date.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const round = (x: number) => Number(x.toFixed(3));
  process.stdout.write(
    JSON.stringify({
      writers,
      commits: latencies.length,
      seconds: round(elapsed),
      commitsPerSec: Math.round(latencies.length / elapsed),
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
    }) + "\n",
  );
}

if (Bun.isMainThread) {
  await main();
} else {
  // The connection is opened before the clock starts, so start-up is not counted as writing time.
  let setup: WriterSetup | undefined;
  let writer: Writer | undefined;
  addEventListener("message", (e: MessageEvent) => {
    const msg = e.data as { setup?: WriterSetup; deadline?: number };
    if (msg.setup) {
      setup = msg.setup;
      writer = openWriter(setup.data);
      postMessage("ready");
    } else if (msg.deadline !== undefined && setup && writer) {
      postMessage(commitLoop(writer, setup, msg.deadline));
      writer.close();
    }
  });
}
