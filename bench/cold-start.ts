/**
 * Cold start, alone (`bun bench/cold-start.ts [runs]`, after `make build`): spawn to the first 200 on
 * `GET /v1/prices` of `dist/feedbase serve` on a demo data file, against the bare server of
 * bench/bare-server.ts compiled the same way and answering the same captured bytes, interleaved in
 * the same run; then spawn to exit of `feedbase version` and `feedbase key list`. Prints medians and
 * the ratio; bench/run.ts measures the same start for bench/RESULTS.md. `FEEDBASE_EXES=a,b` compares
 * several builds of the executable in the same run (the first also makes the demo data). Beside a
 * PostgreSQL cluster (`test/postgres/cluster.sh bun bench/cold-start.ts`), each build's `serve --database`
 * on a copy of the same demo data (`feedbase copy-to`) is timed too, interleaved in the same runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CapturedResponse } from "./bare-server.ts";
import { copyToPostgres } from "./postgres-copy.ts";

const ROOT = join(import.meta.dir, "..");
const EXES = (process.env.FEEDBASE_EXES ?? join(ROOT, "dist", "feedbase")).split(",");
const RUNS = Number(process.argv[2] ?? 9);
/** A PostgreSQL cluster to time `serve --database` on (test/postgres/cluster.sh sets it). */
const PG_ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL;
const tmp = mkdtempSync(join(tmpdir(), "feedbase-cold-"));
const data = join(tmp, "demo.db");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err}`);
  return out;
}

/** The first 200 on `path` from a server on `port`, polled every millisecond. */
async function answer(port: number, path: string, key: string, alive: () => boolean): Promise<Response> {
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { "X-API-Key": key } }).catch(() => null);
    if (res?.status === 200) return res;
    if (!alive()) throw new Error(`the server on port ${port} exited`);
    await Bun.sleep(1);
  }
}

/** Milliseconds from spawn to the first 200 on `path`. */
async function firstAnswer(cmd: string[], port: number, path: string, key: string): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "ignore", stderr: "ignore" });
  try {
    await answer(port, path, key, () => proc.exitCode === null);
    return performance.now() - started;
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

const freePort = () => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
};

try {
  const key = /Read key:\s+(\S+)/.exec(await run([EXES[0]!, "demo", "--data", data]))![1]!;
  // The bytes the bare server answers with: feedbase's own answer to the same request.
  const port = freePort();
  const server = Bun.spawn([EXES[0]!, "serve", "--data", data, "--port", String(port)], { stdout: "ignore", stderr: "ignore" });
  const res = await answer(port, "/v1/prices", key, () => server.exitCode === null);
  const captured: CapturedResponse[] = [{ path: "/v1/prices", status: res.status, headers: [...res.headers], body: Buffer.from(await res.arrayBuffer()).toString("base64") }];
  server.kill("SIGTERM");
  await server.exited;
  writeFileSync(join(tmp, "captured.json"), JSON.stringify(captured));
  const bare = join(tmp, "bare-server");
  await run([process.execPath, "build", join(import.meta.dir, "bare-server.ts"), "--compile", "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig", "--outfile", bare]);

  const copy = PG_ADMIN_URL ? await copyToPostgres(PG_ADMIN_URL, `feedbase_cold_${process.pid}`, data, (argv) => run([EXES[0]!, ...argv]).then(() => ({ code: 0, stderr: "" }))) : null;
  const database = copy?.url ?? null;
  const serve = EXES.map(() => [] as number[]);
  const servePg = EXES.map(() => [] as number[]);
  const version = EXES.map(() => [] as number[]);
  const keyList = EXES.map(() => [] as number[]);
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const q = freePort();
    baseline.push(await firstAnswer([bare, join(tmp, "captured.json"), String(q)], q, "/v1/prices", key));
    for (const [n, exe] of EXES.entries()) {
      const p = freePort();
      serve[n]!.push(await firstAnswer([exe, "serve", "--data", data, "--port", String(p)], p, "/v1/prices", key));
      if (database) {
        const pp = freePort();
        servePg[n]!.push(await firstAnswer([exe, "serve", "--database", database, "--port", String(pp)], pp, "/v1/prices", key));
      }
      let t = performance.now();
      await run([exe, "version"]);
      version[n]!.push(performance.now() - t);
      t = performance.now();
      await run([exe, "key", "list", "--data", data]);
      keyList[n]!.push(performance.now() - t);
    }
  }
  await copy?.drop();
  const f = (n: number) => n.toFixed(1);
  console.log(`spawn to the first 200 on GET /v1/prices, median of ${RUNS}; the bare server: ${f(median(baseline))} ms`);
  for (const [n, exe] of EXES.entries()) {
    const ms = median(serve[n]!);
    console.log(`${exe}: ${f(ms)} ms (${(ms / median(baseline)).toFixed(2)}x the bare server); spawn to exit: version ${f(median(version[n]!))} ms, key list ${f(median(keyList[n]!))} ms`);
    if (database) console.log(`${exe} serve --database: ${f(median(servePg[n]!))} ms (PostgreSQL ÷ SQLite ${(median(servePg[n]!) / ms).toFixed(2)})`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
