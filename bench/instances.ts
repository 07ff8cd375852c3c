/**
 * `make bench`, several instances (docs/decisions.md, several instances on PostgreSQL): one `serve`
 * instance against two on the same PostgreSQL database, both behind the sample HAProxy front
 * (deploy/haproxy/feedbase.cfg), so the only difference is the second instance. Reads (`GET /v1/prices`,
 * `GET /v1/ingredients/:name`) and writes (`PUT /v1/prices/:name`) on the demo workspace, wrk runs
 * alternating one-instance front then two-instance front, so load that comes and goes hits both; the
 * figure is the median of the per-pair ratios. Needs a cluster: run it as `make bench` does, beside
 * test/postgres/cluster.sh (FEEDBASE_TEST_PG_URL).
 *
 * Run alone: `test/postgres/cluster.sh bun bench/instances.ts [dist/feedbase]`; prints the section and
 * puts it into bench/RESULTS.md in place of its previous one.
 */
import { SQL } from "bun";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrk } from "./history.ts";
import { median } from "./report.ts";
import { writeSection } from "./results-file.ts";
import { freePort, waitForIdle } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
const EXE = process.argv[2] ?? join(ROOT, "dist", "feedbase");
const REPS = 5;
const ADMIN_URL = process.env.FEEDBASE_TEST_PG_URL;

interface Proc {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
}

async function command(args: string[]): Promise<string> {
  const proc = Bun.spawn([EXE, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`feedbase ${args.join(" ")}: ${stderr}`);
  return stdout;
}

/** Poll `url` until it answers 200 (the proxy's or the instance's /readyz). */
async function ready(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await fetch(url + "/readyz").catch(() => null))?.status === 200) return;
    await Bun.sleep(50);
  }
  throw new Error(`${url} never became ready`);
}

async function instance(database: string, tmp: string): Promise<Proc> {
  const port = freePort();
  const proc = Bun.spawn([EXE, "serve", "--database", database, "--port", String(port), "--access-log", "off"], { stdout: "ignore", stderr: Bun.file(join(tmp, `serve-${port}.err`)) });
  const url = `http://127.0.0.1:${port}`;
  await ready(url);
  return { proc, url };
}

/** The sample front, listing `backends` (one or two instances). */
async function front(backends: Proc[], tmp: string, name: string): Promise<Proc> {
  const port = freePort();
  const servers = backends.map((b, i) => `    server ${"ab"[i]} ${new URL(b.url).host} check`).join("\n");
  const config = readFileSync(join(ROOT, "deploy", "haproxy", "feedbase.cfg"), "utf8")
    .replace("bind 127.0.0.1:8080", `bind 127.0.0.1:${port}`)
    .replace(/    server a 127\.0\.0\.1:8081 check\n    server b 127\.0\.0\.1:8082 check/, servers);
  const file = join(tmp, `${name}.cfg`);
  writeFileSync(file, config);
  const proc = Bun.spawn(["haproxy", "-db", "-f", file], { stdout: "ignore", stderr: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await ready(url);
  return { proc, url };
}

export interface InstancesFigure {
  scenario: string;
  oneRps: number;
  twoRps: number;
  ratio: number;
}

if (!ADMIN_URL) {
  console.error("bench/instances.ts needs a PostgreSQL cluster: run it through make bench (test/postgres/cluster.sh)");
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-instances-"));
const procs: Proc[] = [];
const admin = new SQL(ADMIN_URL, { max: 1 });
const dbName = `bench_instances_${process.pid}`;
try {
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = "/" + dbName;
  const database = url.href;
  await command(["demo", "--database", database]);
  // Several keys: no key's hourly limit runs out over the runs of both sides.
  const keys: string[] = [];
  for (let i = 0; i < 4; i++) keys.push(JSON.parse(await command(["key", "create", "--write", "--rate-limit", "1000000", "--json", "--database", database])).key);
  const keysFile = join(tmp, "keys.txt");
  writeFileSync(keysFile, keys.join("\n") + "\n");
  const a = await instance(database, tmp);
  const b = await instance(database, tmp);
  procs.push(a, b);
  const one = await front([a], tmp, "one");
  const two = await front([a, b], tmp, "two");
  procs.push(one, two);
  const listed = (await (await fetch(a.url + "/v1/prices", { headers: { "X-API-Key": keys[0]! } })).json()) as { data: { name: string }[] };
  const paths = (make: (name: string) => string) => {
    const file = join(tmp, `paths-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(file, listed.data.map((i) => make(encodeURIComponent(i.name))).join("\n") + "\n");
    return file;
  };
  const scenarios = [
    { scenario: "GET /v1/prices (cached list)", method: "GET" as const, file: paths(() => "/v1/prices") },
    { scenario: "GET /v1/ingredients/:name", method: "GET" as const, file: paths((n) => `/v1/ingredients/${n}`) },
    { scenario: "PUT /v1/prices/:name", method: "PUT" as const, file: paths((n) => `/v1/prices/${n}`) },
  ];
  const figures: InstancesFigure[] = [];
  let base = 100_000;
  for (const s of scenarios) {
    const ones: number[] = [];
    const twos: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      await waitForIdle(1500);
      ones.push((await wrk(one.url, s.method, s.file, keysFile, (base += 10_000))).rate);
      await waitForIdle(1500);
      twos.push((await wrk(two.url, s.method, s.file, keysFile, (base += 10_000))).rate);
    }
    const figure = { scenario: s.scenario, oneRps: median(ones), twoRps: median(twos), ratio: median(twos.map((t, i) => t / ones[i]!)) };
    figures.push(figure);
    console.log(`${s.scenario}: one ${Math.round(figure.oneRps)}/s, two ${Math.round(figure.twoRps)}/s, ratio ${figure.ratio.toFixed(2)}`);
  }
  const section = [
    "## Several instances (PostgreSQL, behind HAProxy)",
    "",
    `One \`serve\` instance against two on the same PostgreSQL database, both behind the sample HAProxy front (deploy/haproxy/feedbase.cfg); wrk -t2 -c32, ${REPS} alternating pairs of 3 s runs; the ratio is the median of the pairs' two/one. Everything (wrk, HAProxy, PostgreSQL, the instances) shares this machine's cores, so a second instance can only help as far as a core is idle.`,
    "",
    "| scenario | one instance | two instances | two / one |",
    "|---|---:|---:|---:|",
    ...figures.map((f) => `| ${f.scenario} | ${Math.round(f.oneRps).toLocaleString("en")}/s | ${Math.round(f.twoRps).toLocaleString("en")}/s | ${f.ratio.toFixed(2)} |`),
  ];
  writeSection(section);
  console.log(section.join("\n"));
} finally {
  for (const p of procs.reverse()) {
    p.proc.kill();
    await p.proc.exited;
  }
  await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.close();
  rmSync(tmp, { recursive: true, force: true });
}
