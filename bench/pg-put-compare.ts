/**
 * PUT /v1/prices/:name on PostgreSQL: this build against an earlier one, in the same run, with the SQLite
 * figure of this build beside it. `test/postgres/cluster.sh bun bench/pg-put-compare.ts <before exe> <after exe>`
 * (the cluster script sets FEEDBASE_TEST_PG_URL). Both executables serve a copy of one seeded file
 * (`copy-to`), each in a database of its own; wrk -t2 -c32 5 s runs alternate between them (this build
 * first in even repetitions), each PUT with a price no other carries (bench/wrk.lua). Ratios are after ÷
 * before per pair, their median with min–max.
 */
import { SQL } from "bun";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { generateIngredients, seedIngredients, SEED } from "./dataset.ts";
import { medianOf } from "./history.ts";
import { freePort, waitForIdle } from "./system.ts";

const [BEFORE_EXE, AFTER_EXE] = [process.argv[2]!, process.argv[3]!];
const REPS = Number(process.env.REPS ?? 5);
const ADMIN = process.env.FEEDBASE_TEST_PG_URL!;
const progress = (msg: string) => process.stderr.write(`[pg-put] ${msg}\n`);

async function run(cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err}`);
  return out;
}

async function serve(args: string[], key: string) {
  const port = freePort();
  const proc = Bun.spawn([...args, "--port", String(port)], { stdout: "ignore", stderr: "inherit", stdin: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(url + "/v1/health", { headers: { "X-API-Key": key } }).then((r) => r.status, () => 0)) !== 200) {
    if (proc.exitCode !== null) throw new Error(`${args.join(" ")} exited`);
    await Bun.sleep(10);
  }
  return { proc, url };
}

async function wrk(url: string, pathsFile: string, keysFile: string, base: number, seconds = 5) {
  const out = await run(["wrk", "-t2", "-c32", `-d${seconds}s`, "--timeout", "10s", "-s", join(import.meta.dir, "wrk.lua"), url, "--", "PUT", pathsFile, keysFile, String(base), "2"]);
  const r = JSON.parse(out.split("\n").find((l) => l.startsWith("BENCH_JSON "))!.slice(11)) as { requests: number; durationUs: number; httpErrors: number; p50Us: number; p99Us: number };
  if (r.httpErrors > 0) throw new Error(`${r.httpErrors} answers >= 400 from ${url}`);
  return { rate: r.requests / (r.durationUs / 1e6), p50: r.p50Us / 1000, p99: r.p99Us / 1000 };
}

const tmp = mkdtempSync(join(tmpdir(), "feedbase-pg-put-"));
const servers: { proc: Bun.Subprocess }[] = [];
try {
  const file = join(tmp, "seed.db");
  const ingredients = generateIngredients(1000, SEED);
  seedIngredients(file, ingredients);
  const keys: string[] = [];
  for (let i = 0; i < 32; i++) keys.push(/fbk_\w+/.exec(await run([AFTER_EXE, "key", "create", "--write", "--rate-limit", "1000000", "--data", file]))![0]);
  writeFileSync(join(tmp, "keys.txt"), keys.join("\n") + "\n");
  writeFileSync(join(tmp, "paths.txt"), ingredients.map((i) => `/v1/prices/${encodeURIComponent(i.name)}`).join("\n") + "\n");
  const admin = new SQL(ADMIN, { max: 1 });
  const sides = { before: BEFORE_EXE, after: AFTER_EXE } as const;
  const running: Record<string, { proc: Bun.Subprocess; url: string }> = {};
  for (const [side, exe] of Object.entries(sides)) {
    const db = `pgput_${side}_${process.pid}`;
    await admin.unsafe(`CREATE DATABASE ${db}`);
    const url = new URL(ADMIN);
    url.pathname = "/" + db;
    await run([exe, "copy-to", url.href, "--data", file]);
    running[side] = await serve([exe, "serve", "--database", url.href], keys[0]!);
    servers.push(running[side]!);
  }
  await admin.close();
  copyFileSync(file, join(tmp, "sqlite.db"));
  running.sqlite = await serve([AFTER_EXE, "serve", "--data", join(tmp, "sqlite.db")], keys[0]!);
  servers.push(running.sqlite);
  let base = 1000;
  for (const side of ["before", "after", "sqlite"]) await wrk(running[side]!.url, join(tmp, "paths.txt"), join(tmp, "keys.txt"), (base += 10_000), 1);
  const figures: Record<string, { rate: number; p50: number; p99: number }[]> = { before: [], after: [], sqlite: [] };
  const loads: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 === 0 ? ["after", "before", "sqlite"] : ["before", "after", "sqlite"];
    for (const side of order) {
      await waitForIdle(1500);
      const f = await wrk(running[side]!.url, join(tmp, "paths.txt"), join(tmp, "keys.txt"), (base += 10_000));
      figures[side]!.push(f);
      loads.push(loadavg()[0]!);
      progress(`rep ${rep + 1} ${side}: ${f.rate.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`);
    }
  }
  const med = (side: string, k: "rate" | "p50" | "p99") => medianOf(figures[side]!.map((f) => f[k]));
  const ratio = (k: "rate" | "p50" | "p99", over = "before", side = "after") => {
    const xs = figures[side]!.map((f, i) => f[k] / figures[over]![i]![k]);
    return `${medianOf(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  };
  console.log(`| figure | after | before | after ÷ before (min–max) | SQLite (after build) | after ÷ SQLite | before ÷ SQLite |`);
  console.log(`|---|---:|---:|---|---:|---|---|`);
  for (const [label, k] of [["req/s", "rate"], ["p50 ms", "p50"], ["p99 ms", "p99"]] as const) {
    const fixed = k === "rate" ? 0 : 1;
    console.log(`| ${label} | ${med("after", k).toFixed(fixed)} | ${med("before", k).toFixed(fixed)} | ${ratio(k)} | ${med("sqlite", k).toFixed(fixed)} | ${ratio(k, "sqlite")} | ${ratio(k, "sqlite", "before")} |`);
  }
  console.log(`${REPS} repetitions, ${new Date().toISOString().slice(0, 16)}Z, highest 1-minute load average ${Math.max(...loads).toFixed(2)}`);
} finally {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill("SIGTERM");
  await Promise.all(servers.map((s) => s.proc.exited));
  rmSync(tmp, { recursive: true, force: true });
}
