/**
 * `make soak`: crash cycles of the compiled executable. `dist/feedbase serve` takes price changes and
 * creates from several workers and is killed with SIGKILL at a seeded random moment, then restarted on
 * the same file, 20 times. After every restart every acknowledged change must be there with exactly
 * one event; by the end every event must have reached a loopback receiver at least once.
 *
 * `make soak-postgres` runs it on a throwaway PostgreSQL cluster (test/postgres/cluster.sh): two
 * instances on one database behind the sample HAProxy front (deploy/haproxy/feedbase.cfg), the workers
 * writing through the front; each cycle one instance, chosen at random, is SIGKILLed while the workers
 * go on through the other, and restarted. A request the front could not answer (a POST the dead
 * instance had, a 502/503) is unacknowledged, like a request cut off by the kill in the one-file run.
 *
 * A request in flight at the kill was never acknowledged: its change may or may not have committed,
 * so the check accepts either, and then carries on from whichever it finds.
 *
 * Prints a summary and writes it to test/soak/last-run.json. FEEDBASE_SOAK_SEED replays a schedule.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { listDeliveries } from "../../src/store/delivery-admin.ts";
import { listEvents } from "../../src/store/events.ts";
import { ROOT, eventually, freePorts, spawnServe, tempDir, type ServeProcess } from "../helpers/harness.ts";
import { databaseArgs, databaseFor, POSTGRES_MODE, psql } from "../helpers/postgres.ts";
import { seeded } from "../helpers/random.ts";
import { independentHex, startRecorder } from "../helpers/webhooks.ts";

const SEED = Number(process.env.FEEDBASE_SOAK_SEED ?? 20261121);
const CYCLES = 20;
const WORKERS = 6;
const FIRST_INGREDIENTS = 24;
/** Load runs this long (ms, seeded per cycle) before the kill. */
const KILL_AFTER = { min: 150, max: 1500 };
/** Short, and long enough in count that a delivery outlives a few kills and the receiver's 500s. */
const RETRY_SCHEDULE = "0.05,0.1,0.2,0.3,0.5,0.5,1,1,1,1,1,1";
// Writers outrun one webhook's deliveries (4 in flight) on a quiet machine: 36,000 events took over 120 s to drain.
const DRAIN_TIMEOUT_MS = 360_000;
const EXE = join(ROOT, "dist", "feedbase");
const OUT = join(import.meta.dir, POSTGRES_MODE ? "last-run-postgres.json" : "last-run.json");
/** PostgreSQL mode: how long the workers go on through the surviving instance after the kill (ms, seeded). */
const GO_ON_AFTER = { min: 100, max: 800 };

/** One change a worker asked for; `price` is unique over the run, so it names the change and its event. */
interface Change {
  kind: "create" | "put";
  name: string;
  price: number;
}

const eventKey = (c: Change) => `${c.kind === "create" ? "ingredient.added" : "price.updated"}|${c.name}|${c.price}`;

if (!existsSync(EXE)) {
  console.error(`${EXE} is missing: run make build (make soak does)`);
  process.exit(2);
}

const started = performance.now();
const rnd = seeded(SEED);
const tmp = tempDir();
const failures: string[] = [];
const fail = (message: string) => {
  failures.push(message);
  console.error(`FAIL ${message}`);
};

// The receiver answers most deliveries after a short pause and refuses a few with a 500, so kills
// land with deliveries in flight, pending and on their retry schedule.
const receiverRnd = seeded(SEED ^ 0x5eed);
/** Deliveries the receiver accepted (answered 2xx), by webhook-id. */
const accepted = new Map<string, { payload: string; times: number }>();
let refusedByReceiver = 0;
const receiver = startRecorder(async (request) => {
  const roll = receiverRnd();
  if (roll < 0.05) {
    refusedByReceiver++;
    return new Response("try later", { status: 500 });
  }
  if (roll < 0.3) await Bun.sleep(Math.floor(receiverRnd() * 40));
  const id = request.headers["webhook-id"]!;
  const seen = accepted.get(id);
  if (seen) seen.times++;
  else accepted.set(id, { payload: request.text, times: 1 });
  return new Response(null, { status: 204 });
});

const env = { FEEDBASE_RETRY_SCHEDULE: RETRY_SCHEDULE };
/** Behind the front an instance comes back on its own port, so the front's configuration holds. */
const ports = POSTGRES_MODE ? freePorts(3) : [0];
const serve = (i: number) => spawnServe(tmp.dataPath, { command: [EXE], env, args: ["--port", String(ports[i])] });

async function admin(args: string[]): Promise<string> {
  const proc = Bun.spawn([EXE, ...databaseArgs([...args, "--data", tmp.dataPath])], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`feedbase ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

// State the checks compare with: what each worker owns, the last price known to be committed, and
// the change each worker had in flight when the server died.
const owned: string[][] = Array.from({ length: WORKERS }, () => []);
const committedPrice = new Map<string, number>();
const acknowledged: Change[] = [];
const inFlightAtKill: Change[] = [];
const everInFlight = new Set<string>();
let nextPrice = 1000;

const summary = {
  seed: SEED,
  executable: "dist/feedbase",
  backend: POSTGRES_MODE ? "postgres: two instances behind haproxy, one killed per cycle" : "sqlite: one instance, killed per cycle",
  cycles: CYCLES,
  cyclesSurvived: 0,
  workers: WORKERS,
  acknowledgedChecked: 0,
  unacknowledgedAtKill: 0,
  unacknowledgedCommitted: 0,
  events: 0,
  delivered: 0,
  lost: 0,
  acceptedAgain: 0,
  refusedByReceiver: 0,
  badSignatures: 0,
  durationSeconds: 0,
  finishedAt: "",
  failures: [] as string[],
};

/** The instances the workers write to: one, or two behind the front (PostgreSQL mode). */
const instances: ServeProcess[] = [await serve(0)];
let front = instances[0]!.url;
let proxy: ReturnType<typeof Bun.spawn> | undefined;
if (POSTGRES_MODE) {
  instances.push(await serve(1));
  const port = ports[2]!;
  const config = join(tmp.dir, "haproxy.cfg");
  writeFileSync(
    config,
    readFileSync(join(ROOT, "deploy", "haproxy", "feedbase.cfg"), "utf8")
      .replace("bind 127.0.0.1:8080", `bind 127.0.0.1:${port}`)
      .replace("server a 127.0.0.1:8081", `server a ${new URL(instances[0]!.url).host}`)
      .replace("server b 127.0.0.1:8082", `server b ${new URL(instances[1]!.url).host}`),
  );
  proxy = Bun.spawn(["haproxy", "-db", "-f", config], { stdout: "ignore", stderr: "inherit" });
  front = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(front + "/readyz").catch(() => null))?.headers.has("x-request-id") === true, 15_000);
}
const key = JSON.parse(await admin(["key", "create", "--write", "--rate-limit", "1000000", "--label", "soak", "--json"])).key as string;
const webhook = JSON.parse(await admin(["webhook", "add", receiver.url, "--json"])) as { id: string; secret: string };

const call = (base: string, method: string, path: string, body?: unknown) =>
  fetch(base + path, { method, headers: { "X-API-Key": key }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

for (let i = 0; i < FIRST_INGREDIENTS; i++) {
  const change: Change = { kind: "create", name: `Soak ${i}`, price: nextPrice++ };
  const res = await call(front, "POST", "/v1/ingredients", { name: change.name, category: "Soak", price: change.price });
  if (res.status !== 201) throw new Error(`seeding ${change.name}: ${res.status} ${await res.text()}`);
  acknowledged.push(change);
  committedPrice.set(change.name, change.price);
  owned[i % WORKERS]!.push(change.name);
}

/** Writes until the server dies under it; a change whose answer never came is recorded as in flight. */
async function worker(w: number, base: string, cycle: number, state: { killing: boolean; killed: boolean }): Promise<void> {
  const mine = seeded(SEED + cycle * 1000 + w);
  let created = 0;
  while (!state.killing) {
    const names = owned[w]!;
    const change: Change =
      names.length === 0 || mine() < 0.15
        ? { kind: "create", name: `Soak c${cycle} w${w} n${created++}`, price: nextPrice++ }
        : { kind: "put", name: names[Math.floor(mine() * names.length)]!, price: nextPrice++ };
    const path =
      change.kind === "create" ? "/v1/ingredients" : `/v1/${mine() < 0.5 ? "prices" : "ingredients"}/${encodeURIComponent(change.name)}`;
    const body = change.kind === "create" ? { name: change.name, category: "Soak", price: change.price } : { price: change.price };
    let status: number;
    try {
      const res = await call(base, change.kind === "create" ? "POST" : "PUT", path, body);
      await res.arrayBuffer();
      status = res.status;
    } catch (error) {
      if (!state.killed) fail(`cycle ${cycle}: ${change.kind} ${change.name} failed while the server was up: ${String(error)}`);
      inFlightAtKill.push(change);
      everInFlight.add(eventKey(change));
      return;
    }
    // Behind the front, a request the killed instance had and the front could not resend (a POST)
    // comes back 502/503: as unacknowledged as a cut connection.
    if (POSTGRES_MODE && state.killed && status >= 502 && status <= 504) {
      inFlightAtKill.push(change);
      everInFlight.add(eventKey(change));
      return;
    }
    if (status !== (change.kind === "create" ? 201 : 200)) {
      fail(`cycle ${cycle}: ${change.kind} ${change.name} answered ${status}`);
      return;
    }
    acknowledged.push(change);
    committedPrice.set(change.name, change.price);
    if (change.kind === "create") names.push(change.name);
  }
}

/** After a restart: acknowledged prices (or a later in-flight one), one event per change, nothing invented. */
async function check(cycle: number): Promise<boolean> {
  const before = failures.length;
  const res = await call(front, "GET", "/v1/ingredients");
  const listed = new Map<string, number>((await res.json()).data.map((i: { name: string; price: number }) => [i.name, i.price]));
  const unresolved = new Map(inFlightAtKill.map((c) => [c.name, c]));
  inFlightAtKill.length = 0;
  for (const [name, price] of committedPrice) {
    const got = listed.get(name);
    const maybe = unresolved.get(name);
    if (got === price) continue;
    if (maybe && got === maybe.price) {
      // The unacknowledged change committed before the kill: it is now the state to build on.
      committedPrice.set(name, got);
      summary.unacknowledgedCommitted++;
      continue;
    }
    fail(`cycle ${cycle}: ${name} has price ${got}, acknowledged ${price}${maybe ? ` (or unacknowledged ${maybe.price})` : ""}`);
  }
  for (const maybe of unresolved.values()) {
    if (maybe.kind !== "create" || !listed.has(maybe.name)) continue;
    // An unacknowledged create that committed: its worker owns it from now on.
    summary.unacknowledgedCommitted++;
    committedPrice.set(maybe.name, listed.get(maybe.name)!);
    owned[Number(/ w(\d+) /.exec(maybe.name)![1])]!.push(maybe.name);
  }

  const events = storedEvents();
  const counts = new Map<string, number>();
  for (const e of events) {
    const p = JSON.parse(e.payload) as { ingredient: string; new_price?: number; price?: number };
    const k = `${e.type}|${p.ingredient}|${p.new_price ?? p.price}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const change of acknowledged) {
    const n = counts.get(eventKey(change)) ?? 0;
    if (n !== 1) fail(`cycle ${cycle}: acknowledged ${change.kind} ${change.name} @ ${change.price} has ${n} events`);
  }
  const acked = new Set(acknowledged.map(eventKey));
  for (const [k, n] of counts) {
    if (n !== 1) fail(`cycle ${cycle}: event ${k} recorded ${n} times`);
    if (!acked.has(k) && !everInFlight.has(k)) fail(`cycle ${cycle}: event ${k} matches no change that was asked for`);
  }
  summary.events = events.length;
  summary.acknowledgedChecked = acknowledged.length;
  return failures.length === before;
}

/** Every event of the workspace, oldest first, from the file or the database. */
function storedEvents(): { type: string; payload: string }[] {
  if (!POSTGRES_MODE) {
    const db = openDatabase(tmp.dataPath, { create: false });
    try {
      return listEvents(db, 1);
    } finally {
      db.close();
    }
  }
  const lines = psql(databaseFor(tmp.dataPath)!, "SELECT type || chr(9) || payload FROM events WHERE workspace_id = 1 ORDER BY id");
  return lines
    .split("\n")
    .filter(Boolean)
    .map((line) => ({ type: line.slice(0, line.indexOf("\t")), payload: line.slice(line.indexOf("\t") + 1) }));
}

for (let cycle = 1; cycle <= CYCLES; cycle++) {
  const state = { killing: false, killed: false };
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w, front, cycle, state));
  await Bun.sleep(KILL_AFTER.min + Math.floor(rnd() * (KILL_AFTER.max - KILL_AFTER.min)));
  const victim = instances.length === 1 ? 0 : Math.floor(rnd() * instances.length);
  const dead: ServeProcess = instances[victim]!;
  dead.proc.kill("SIGKILL");
  // Set after the signal: an answer already on its way still counts as acknowledged.
  state.killed = true;
  // Behind the front the workers go on through the other instance for a while.
  if (POSTGRES_MODE) await Bun.sleep(GO_ON_AFTER.min + Math.floor(rnd() * (GO_ON_AFTER.max - GO_ON_AFTER.min)));
  state.killing = true;
  await dead.proc.exited;
  await Promise.all(workers);
  const cut = inFlightAtKill.length;
  summary.unacknowledgedAtKill += cut;

  instances[victim] = await serve(victim);
  // Alone, the restarted instance is the front (on a new port); behind haproxy it took its old port.
  if (!proxy) front = instances[0]!.url;
  const survived = await check(cycle);
  if (survived) summary.cyclesSurvived++;
  console.log(
    `cycle ${String(cycle).padStart(2)}: killed with ${cut} changes in flight; ` +
      `${acknowledged.length} acknowledged, ${summary.events} events, ${accepted.size} deliveries accepted${survived ? "" : " — FAILED"}`,
  );
}

// Every event reaches the receiver at least once. A delivery accepted again is one whose answer a
// kill cut off: at-least-once, de-duplicated by receivers on webhook-id.
const payloads = storedEvents().map((e) => e.payload);
const delivered = () => new Set([...accepted.values()].map((a) => a.payload));
try {
  await eventually(() => {
    const got = delivered();
    return payloads.every((p) => got.has(p));
  }, DRAIN_TIMEOUT_MS);
} catch {
  // Counted as lost below.
}
const got = delivered();
summary.delivered = payloads.filter((p) => got.has(p)).length;
summary.lost = payloads.length - summary.delivered;
summary.acceptedAgain = [...accepted.values()].reduce((n, a) => n + a.times - 1, 0);
summary.refusedByReceiver = refusedByReceiver;
if (summary.lost > 0) fail(`${summary.lost} events never reached the receiver`);
for (const r of receiver.requests) {
  if (r.headers["x-webhook-signature"] !== independentHex(webhook.secret, r.bytes)) summary.badSignatures++;
}
if (summary.badSignatures > 0) fail(`${summary.badSignatures} deliveries carried a bad signature`);
if (POSTGRES_MODE) {
  const failed = psql(databaseFor(tmp.dataPath)!, "SELECT id || ' (' || coalesce(last_error, '') || ')' FROM deliveries WHERE status = 'failed' LIMIT 10").trim();
  if (failed !== "") fail(`deliveries ended failed: ${failed.split("\n").join(", ")}`);
} else {
  const db = openDatabase(tmp.dataPath, { create: false });
  const failed = listDeliveries(db, { status: "failed", limit: 10 });
  if (failed.length > 0) fail(`deliveries ended failed: ${failed.map((d) => `${d.id} (${d.lastError})`).join(", ")}`);
  const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  if (integrity !== "ok") fail(`integrity_check: ${integrity}`);
  db.close();
}
for (const instance of instances) {
  const code = await instance.stop("SIGTERM");
  if (code !== 0) fail(`serve exited ${code} on SIGTERM`);
}
proxy?.kill();
await proxy?.exited;
await receiver.stop();
tmp.cleanup();

summary.durationSeconds = Math.round((performance.now() - started) / 100) / 10;
summary.finishedAt = new Date().toISOString();
summary.failures = failures.slice(0, 50);
writeFileSync(OUT, JSON.stringify(summary, null, 2) + "\n");
console.log(
  `\nsoak (seed ${SEED}): ${summary.cyclesSurvived}/${CYCLES} cycles survived, ${summary.acknowledgedChecked} acknowledged changes checked ` +
    `(${summary.unacknowledgedCommitted} of ${summary.unacknowledgedAtKill} unacknowledged in-flight changes had committed), ` +
    `${summary.events} events, ${summary.delivered} delivered, ${summary.lost} lost (${summary.acceptedAgain} accepted twice after a kill), ` +
    `${summary.durationSeconds} s. Written to test/soak/${OUT.split("/").pop()}`,
);
process.exit(failures.length === 0 ? 0 : 1);
