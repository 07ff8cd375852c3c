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
 * benchmark's ingredients (bench/dataset.ts); pass a copy, it gains one event per commit. A file of an
 * older schema (bench/issue29.ts seeds with the build before event numbers) is first brought to this
 * build's, as `feedbase serve` would. A writer's error ends the run at once: message on stderr, exit 1.
 */
import { parseArgs } from "node:util";
import { closeDatabase, openDatabase } from "../src/store/db.ts";

interface WriterSetup {
  data: string;
  index: number;
  writers: number;
  lock: SharedArrayBuffer;
}

type Writer = ReturnType<typeof openWriter>;

/** One connection opened as the product opens it (src/store/db.ts) and the write of a price PUT. */
function openWriter(data: string) {
  const db = openDatabase(data, { create: false });
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
  // Closed plainly (db.close), not with closeDatabase: its checkpoint would take the write lock from writers still finishing their last turn.
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

/** What a worker posts: "ready" once its connection is open, then its latencies, or its error at either step. */
type Reply = "ready" | number[] | { error: string };

/**
 * End the run now. A writer that failed may hold the queue lock, so the others would wait for their
 * turn forever: only exiting the process ends them.
 */
function fail(message: string): never {
  process.stderr.write(`bare-commit: ${message}\n`);
  process.exit(1);
}

/** The worker's next reply; an error it reports ends the run (`fail`). */
function reply<T extends Reply>(worker: Worker, index: number): Promise<T> {
  return new Promise((resolve) =>
    worker.addEventListener(
      "message",
      (e: MessageEvent) => {
        const data = e.data as Reply;
        if (typeof data === "object" && "error" in data) fail(`writer ${index}: ${data.error}`);
        resolve(data as T);
      },
      { once: true },
    ),
  );
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
  // Once, before any writer opens it: writers migrating side by side would race for the schema copy.
  closeDatabase(openDatabase(values.data, { create: false }));
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
    const workers = Array.from({ length: writers }, (_, index) => {
      const worker = new Worker(import.meta.path);
      // What the worker's own catch cannot report (a throw outside its message handler).
      worker.addEventListener("error", (e: ErrorEvent) => fail(`writer ${index}: ${e.message}`));
      return worker;
    });
    const ready = workers.map((w, index) => reply<"ready">(w, index));
    workers.forEach((w, index) => w.postMessage({ setup: { data: values.data, index, writers, lock } }));
    await Promise.all(ready);
    started = Date.now();
    const results = workers.map((w, index) => reply<number[]>(w, index));
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
  await main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
} else {
  // The connection is opened before the clock starts, so start-up is not counted as writing time.
  let setup: WriterSetup | undefined;
  let writer: Writer | undefined;
  addEventListener("message", (e: MessageEvent) => {
    const msg = e.data as { setup?: WriterSetup; deadline?: number };
    try {
      if (msg.setup) {
        setup = msg.setup;
        writer = openWriter(setup.data);
        postMessage("ready" satisfies Reply);
      } else if (msg.deadline !== undefined && setup && writer) {
        postMessage(commitLoop(writer, setup, msg.deadline) satisfies Reply);
        writer.close();
      }
    } catch (error) {
      postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
  });
}
