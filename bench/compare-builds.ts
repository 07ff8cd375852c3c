/**
 * The read and write paths of this build against an earlier commit's, in the same run ("bench ratios no
 * worse than before"): `bun bench/compare-builds.ts [commit] [dist/feedbase]`, after `make build`; beside
 * a throwaway cluster (test/postgres/cluster.sh, as `make bench` runs it) on PostgreSQL as well.
 *
 * The earlier executable is built from `commit` in a temporary git worktree sharing our node_modules,
 * with that commit's own compile flags (the Makefile of then). It makes the data file itself (1,000
 * ingredients from bench/dataset.ts imported as CSV, 200 formulas, a key per scenario), so the file has
 * its schema; this build serves a copy, which it migrates when it opens it. On PostgreSQL each build
 * copies its own file into its own database with its own `copy-to`. Then, scenario by scenario, wrk runs
 * alternate between the two servers (this build first in even repetitions, second in odd ones). Two
 * figures per run: requests a second, and the server's own CPU per request (from /proc/<pid>/stat),
 * which other load on the shared machine moves less (on PostgreSQL the database's CPU is not in it).
 * Ratios are this build ÷ the earlier one, the median of the per-pair ratios with their spread.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { generateFormulas, generateIngredients, ingredientsCsv, SEED } from "./dataset.ts";
import { copyToPostgres, type PostgresCopy } from "./postgres-copy.ts";
import { medianOf, serve, stop, wrk, type Server } from "./history.ts";
import { writeSection } from "./results-file.ts";
import { freePort, processTicks, waitForIdle } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
/** main just before the storage step (store operations written once over per-dialect statements, issue 28). */
const BEFORE = process.argv[2] ?? "41bd085";
const EXE = process.argv[3] ?? join(ROOT, "dist", "feedbase");
const REPS = Number(process.env.REPS ?? 3);
const PG_URL = process.env.FEEDBASE_TEST_PG_URL ?? null;
const TICKS_PER_SECOND = 100;

const progress = (msg: string) => process.stderr.write(`[bench compare] ${msg}\n`);

async function run(cmd: string[], cwd = ROOT): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${stderr.trim().split("\n").pop()}`);
  return stdout;
}

/** The executable as `commit` built it, with its Makefile's entry points and flags (before --bytecode, a plain --compile). */
async function buildAt(commit: string, tmp: string): Promise<string> {
  const tree = join(tmp, "tree");
  await run(["git", "worktree", "add", "--detach", tree, commit]);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    const makefile = await Bun.file(join(tree, "Makefile")).text();
    // Since the solver pool the flags sit in a COMPILE variable that also names the worker's entry point;
    // missing it, the earlier build's pool would fail and restart its worker over and over, all bench long.
    const flags = (/^COMPILE\s*:?=\s*\$\(BUN\) build cli\/main\.ts (.*)$/m.exec(makefile) ?? /build cli\/main\.ts (.*?) --outfile/.exec(makefile))?.[1]?.trim().split(/\s+/) ?? ["--compile"];
    const exe = join(tmp, "feedbase-before");
    await run([process.execPath, "build", join(tree, "cli", "main.ts"), ...flags, "--outfile", exe], tree);
    return exe;
  } finally {
    await run(["git", "worktree", "remove", "--force", tree]);
  }
}

/** The data file, made by the earlier executable: its schema, migrated by ours on its copy. */
async function makeData(exe: string, tmp: string): Promise<{ data: string; names: string[]; formulaIds: string[] }> {
  const data = join(tmp, "before.db");
  const ingredients = generateIngredients(1000, SEED);
  const formulas = generateFormulas(ingredients, 200, 12, SEED);
  writeFileSync(join(tmp, "ingredients.csv"), ingredientsCsv(ingredients));
  writeFileSync(join(tmp, "formulas.json"), JSON.stringify(formulas));
  // Only serve creates a missing file: start it until it answers at all (401: no key yet), then stop it.
  const port = freePort();
  const first = Bun.spawn([exe, "serve", "--data", data, "--port", String(port)], { stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  while ((await fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.status, () => 0)) === 0) {
    if (first.exitCode !== null) throw new Error(`${exe} serve exited ${first.exitCode}`);
    await Bun.sleep(10);
  }
  first.kill("SIGTERM");
  await first.exited;
  await run([exe, "import", "ingredients", join(tmp, "ingredients.csv"), "--data", data]);
  await run([exe, "import", "formulas", join(tmp, "formulas.json"), "--data", data]);
  return { data, names: ingredients.map((i) => i.name), formulaIds: formulas.map((f) => f.id) };
}

interface Side {
  rate: number[];
  cpuUs: number[];
}

type Scenario = [label: string, method: "GET" | "PUT", paths: string[]];

/** Every scenario on one backend, runs alternating between the two servers; a table row each. */
async function compare(backend: string, before: Server, after: Server, keys: { before: string[]; after: string[] }, scenarios: Scenario[], tmp: string): Promise<string[]> {
  let base = 1000;
  const rows: string[] = [];
  for (const [n, [label, method, paths]] of scenarios.entries()) {
    const pathsFile = join(tmp, "paths.txt");
    writeFileSync(pathsFile, paths.join("\n") + "\n");
    const sides: Record<"after" | "before", Side> = { after: { rate: [], cpuUs: [] }, before: { rate: [], cpuUs: [] } };
    const loads: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      progress(`${backend}: ${method} ${label}, run ${rep + 1} of ${REPS}`);
      const order = rep % 2 === 0 ? (["after", "before"] as const) : (["before", "after"] as const);
      for (const side of order) {
        const server = side === "after" ? after : before;
        const keysFile = join(tmp, "keys.txt");
        writeFileSync(keysFile, keys[side][n]! + "\n");
        await waitForIdle(1500);
        const ticks = processTicks(server.proc.pid);
        const measured = await wrk(server.url, method, pathsFile, keysFile, (base += 10_000));
        sides[side].rate.push(measured.rate);
        sides[side].cpuUs.push((((processTicks(server.proc.pid) - ticks) / TICKS_PER_SECOND) * 1e6) / measured.requests);
        loads.push(loadavg()[0]! / cpus().length);
      }
    }
    const ratios = (pick: (s: Side) => number[]) => pick(sides.after).map((a, i) => a / pick(sides.before)[i]!);
    const figure = (xs: number[]) => `**${medianOf(xs).toFixed(2)}** (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
    const k = (xs: number[]) => Math.round(medianOf(xs)).toLocaleString("en-US");
    rows.push(
      `| ${backend} | ${method} ${label} | ${k(sides.after.rate)} | ${k(sides.before.rate)} | ${figure(ratios((s) => s.rate))} | ${medianOf(sides.after.cpuUs).toFixed(1)} | ` +
        `${medianOf(sides.before.cpuUs).toFixed(1)} | ${figure(ratios((s) => s.cpuUs))} | ${Math.max(...loads).toFixed(2)} |`,
    );
  }
  return rows;
}

/** A key per scenario on a database, made by that side's executable. */
async function keysOn(exe: string, location: string[], count: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) made.push(/fbk_\w+/.exec(await run([exe, "key", "create", "--write", "--rate-limit", "1000000", ...location]))![0]);
  return made;
}

const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-compare-"));
const servers: Server[] = [];
const databases: PostgresCopy[] = [];
try {
  progress(`building ${BEFORE}`);
  const beforeExe = await buildAt(BEFORE, tmp);
  progress("making the data file with it");
  const { data, names, formulaIds } = await makeData(beforeExe, tmp);
  const encoded = names.map((n) => encodeURIComponent(n));
  const scenarios: Scenario[] = [
    ["/v1/prices", "GET", ["/v1/prices"]],
    ["/v1/ingredients", "GET", ["/v1/ingredients"]],
    ["/v1/ingredients/:name", "GET", encoded.map((n) => `/v1/ingredients/${n}`)],
    ["/v1/formulas", "GET", ["/v1/formulas"]],
    ["/v1/formulas/:id", "GET", formulaIds.map((id) => `/v1/formulas/${encodeURIComponent(id)}`)],
    // Every PUT changes a price: the write, its history row and event, and the next reads rebuilt.
    ["/v1/prices/:name", "PUT", encoded.map((n) => `/v1/prices/${n}`)],
  ];
  const rows: string[] = [];
  const made = await keysOn(beforeExe, ["--data", data], scenarios.length);
  const sqliteKeys = { before: made, after: made };
  await run(["cp", data, join(tmp, "after.db")]);
  const before = await serve(beforeExe, data, sqliteKeys.before[0]!);
  const after = await serve(EXE, join(tmp, "after.db"), sqliteKeys.after[0]!);
  servers.push(before, after);
  rows.push(...(await compare("SQLite", before, after, sqliteKeys, scenarios, tmp)));
  for (const s of servers.splice(0)) await stop(s);
  if (PG_URL !== null) {
    progress("copying each build's data file into its own PostgreSQL database");
    const exec = (exe: string) => async (argv: string[]) => {
      const proc = Bun.spawn([exe, ...argv], { stdout: "ignore", stderr: "pipe", stdin: "ignore" });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      return { code, stderr };
    };
    const pgBefore = await copyToPostgres(PG_URL, `feedbase_compare_before_${process.pid}`, data, exec(beforeExe));
    databases.push(pgBefore);
    const pgAfter = await copyToPostgres(PG_URL, `feedbase_compare_after_${process.pid}`, join(tmp, "after.db"), exec(EXE));
    databases.push(pgAfter);
    const pgKeys = { before: await keysOn(beforeExe, ["--database", pgBefore.url], scenarios.length), after: await keysOn(EXE, ["--database", pgAfter.url], scenarios.length) };
    const b = await serve(beforeExe, pgBefore.url, pgKeys.before[0]!, "--database");
    const a = await serve(EXE, pgAfter.url, pgKeys.after[0]!, "--database");
    servers.push(b, a);
    rows.push(...(await compare(`PostgreSQL ${pgBefore.version}`, b, a, pgKeys, scenarios, tmp)));
  }
  const out = [
    "## Read and write paths against an earlier build",
    "",
    `From \`make bench-compare\` (bench/compare-builds.ts): this build (${EXE.replace(ROOT + "/", "")}) against ${BEFORE} (built with its own flags, same Bun), ${REPS} alternating wrk -t2 -c32 3 s runs per scenario, ` +
      `measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} cores${PG_URL === null ? " (SQLite only: PostgreSQL runs beside a throwaway cluster, as make bench starts it)" : ""}:`,
    "",
    "| backend | request | req/s now | req/s before | throughput now ÷ before (min–max) | server CPU µs/req now | before | CPU now ÷ before (min–max) | highest load average per core |",
    "|---|---|---:|---:|---|---:|---:|---|---:|",
    ...rows,
  ];
  console.log(out.join("\n"));
  writeSection([...out, ""]);
} finally {
  for (const s of servers) if (s.proc.exitCode === null) await stop(s);
  for (const d of databases) await d.drop();
  rmSync(tmp, { recursive: true, force: true });
}
