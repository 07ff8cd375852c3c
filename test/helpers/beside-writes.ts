/**
 * Admin commands beside a server taking concurrent writes: the scenario of
 * test/reliability-concurrency.test.ts (on both backends) and of backup's turn in it
 * (test/backup.test.ts, SQLite only), so both check the same things.
 */
import { expect } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, type TestServer } from "./harness.ts";

const WRITERS = 4;
const IMPORTED_ROWS = 4000;
/**
 * A correctness bound, not a benchmark: a request held this long means something waited on a lock. A lock
 * held across a command would hold the writes for about the command's run, so the bound grows to half the
 * commands' run when a loaded machine makes that longer (a group commit of 4 writes once took 1.3 s on
 * PostgreSQL beside another suite and a helper's builds).
 */
const STALL_MS = 1000;

interface Answered {
  what: string;
  status: number;
  ms: number;
  /** `performance.now()` when the answer came. */
  at: number;
}

/**
 * Three `key create`s and an import of 4,000 rows (and `extra` command lines, given the test's
 * directory), all as subprocesses at once, while four writers change prices and create ingredients
 * through the API; then checks: every command succeeded, each new key works on the server's next
 * request, no write failed or stalled, and every acknowledged write and imported row is there.
 * @example await adminBesideWrites(t, (dir) => [["backup", join(dir, "backup.db"), "--data", t.dataPath]])
 */
export async function adminBesideWrites(t: TestServer, extra: (dir: string) => string[][] = () => []): Promise<void> {
  const key = t.key({ write: true });
  const dir = join(t.dataPath, "..");
  const csv = join(dir, "import.csv");
  writeFileSync(csv, ["name,category,price,inStock", ...Array.from({ length: IMPORTED_ROWS }, (_, i) => `Imported ${i},Imported,${100 + (i % 500)},true`)].join("\n") + "\n");
  const owned = Array.from({ length: WRITERS }, (_, w) => `Writer ${w} maize`);
  for (const name of owned) expect((await t.request("POST", "/v1/ingredients", { key, body: { name, price: 100 } })).status).toBe(201);

  // Each writer changes its own ingredient's price and creates new ones until the admin commands are done.
  const answered: Answered[] = [];
  const lastPrice = new Map<string, number>();
  const created: string[] = [];
  let adminDone = false;
  const writer = async (w: number) => {
    for (let i = 1; !adminDone; i++) {
      const create = i % 5 === 0;
      const name = create ? `Writer ${w} new ${i}` : owned[w]!;
      const started = performance.now();
      const res = create
        ? await t.request("POST", "/v1/ingredients", { key, body: { name, price: i } })
        : await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key, body: { price: 100 + i } });
      const body = await res.text();
      answered.push({ what: `${create ? "POST" : "PUT"} ${name}${res.status >= 400 ? `: ${body}` : ""}`, status: res.status, ms: performance.now() - started, at: performance.now() });
      if (res.status === 201) created.push(name);
      if (res.status === 200) lastPrice.set(name, 100 + i);
      // Let the other writers and the subprocess pipes in between; the load stays concurrent.
      await Promise.resolve();
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  // Writes are flowing before the first admin command starts.
  while (answered.length < 20) await Bun.sleep(5);

  const keyCommands = [["key", "create", "--write", "--json"], ["key", "create", "--label", "dashboard", "--json"], ["key", "create", "--json"]];
  const commands = [...keyCommands.map((args) => [...args, "--data", t.dataPath]), ["import", "ingredients", csv, "--data", t.dataPath], ...extra(dir)];
  const adminStarted = performance.now();
  const admin = await Promise.all(commands.map((args) => cli(args, { subprocess: true })));
  const adminEnded = performance.now();
  adminDone = true;
  await Promise.all(writers);

  for (const [i, r] of admin.entries()) expect({ args: commands[i], code: r.code, stderr: r.stderr }).toEqual({ args: commands[i], code: 0, stderr: "" });
  // The server takes each new key on its very next request.
  for (const r of admin.slice(0, keyCommands.length)) {
    expect((await t.request("GET", "/v1/health", { key: JSON.parse(r.stdout).key })).status).toBe(200);
  }

  // The admin commands really ran beside the writes.
  const during = answered.filter((a) => a.at > adminStarted && a.at < adminEnded);
  expect(during.length).toBeGreaterThan(20);
  expect(answered.filter((a) => a.status !== 200 && a.status !== 201).map((a) => `${a.status} ${a.what}`)).toEqual([]);
  const stall = Math.max(STALL_MS, (adminEnded - adminStarted) / 2);
  expect(answered.filter((a) => a.ms > stall).map((a) => `${Math.round(a.ms)} ms ${a.what}`)).toEqual([]);

  const listed = new Map<string, { price: number; category: string }>(
    (await (await t.request("GET", "/v1/ingredients", { key })).json()).data.map((i: { name: string; price: number; category: string }) => [i.name, i]),
  );
  for (const [name, price] of lastPrice) expect({ name, price: listed.get(name)?.price }).toEqual({ name, price });
  for (const name of created) expect(listed.has(name)).toBe(true);
  expect([...listed.values()].filter((i) => i.category === "Imported")).toHaveLength(IMPORTED_ROWS);
}
