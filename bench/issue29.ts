/**
 * Issue 29's figures side by side in one run: this build, the build before the issue (c560396, built
 * from its own tree) and the bare limits (bench/bare-server.ts serving the same bytes, bench/bare-commit.ts
 * with 32 writers). Scenarios: PUT /v1/prices/:name (p99 and throughput), cached GET of one ingredient
 * and of one formula (throughput); then each server's resident memory idle and at its peak.
 * Runs alternate between the sides, repetition by repetition. `bun bench/issue29.ts [commit] [exe]`,
 * after `make build` (make bench runs it); writes its section of bench/RESULTS.md and prints it.
 */
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { CapturedResponse } from "./bare-server.ts";
import { generateFormulas, generateIngredients, ingredientsCsv, SEED } from "./dataset.ts";
import { medianOf, serve, stop, type Server } from "./history.ts";
import { writeSection } from "./results-file.ts";
import { freePort, memoryKiB } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
const BEFORE = process.argv[2] ?? "c560396";
const EXE = process.argv[3] ?? join(ROOT, "dist", "feedbase");
const REPS = Number(process.env.REPS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const progress = (msg: string) => process.stderr.write(`[bench issue29] ${msg}\n`);

async function run(cmd: string[], cwd = ROOT): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${stderr.trim().split("\n").pop()}`);
  return stdout;
}

async function buildAt(commit: string, tmp: string): Promise<string> {
  const tree = join(tmp, "tree");
  await run(["git", "worktree", "add", "--detach", tree, commit]);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    const makefile = await Bun.file(join(tree, "Makefile")).text();
    const flags = /build cli\/main\.ts (.*?) --outfile/.exec(makefile)?.[1]?.split(/\s+/) ?? ["--compile"];
    const exe = join(tmp, "feedbase-before");
    await run([process.execPath, "build", join(tree, "cli", "main.ts"), ...flags, "--outfile", exe], tree);
    return exe;
  } finally {
    await run(["git", "worktree", "remove", "--force", tree]);
  }
}

interface Wrk {
  rate: number;
  p99Ms: number;
}

async function wrk(url: string, method: "GET" | "PUT", pathsFile: string, keysFile: string, base: number): Promise<Wrk> {
  const out = await run(["wrk", "-t2", "-c32", `-d${SECONDS}s`, "--timeout", "10s", "-s", join(import.meta.dir, "wrk.lua"), url, "--", method, pathsFile, keysFile, String(base), "2"]);
  const line = out.split("\n").find((l) => l.startsWith("BENCH_JSON "))!;
  const r = JSON.parse(line.slice("BENCH_JSON ".length)) as { requests: number; durationUs: number; httpErrors: number; p99Us: number };
  if (r.httpErrors > 0) throw new Error(`wrk ${method} ${url}: ${r.httpErrors} answers >= 400`);
  return { rate: r.requests / (r.durationUs / 1e6), p99Ms: r.p99Us / 1000 };
}

async function bareCommit(data: string): Promise<Wrk> {
  const out = await run([process.execPath, join(import.meta.dir, "bare-commit.ts"), "--data", data, "--writers", "32", "--seconds", String(SECONDS)]);
  const r = JSON.parse(out.trim().split("\n").pop()!) as { commitsPerSec: number; p99Ms: number };
  return { rate: r.commitsPerSec, p99Ms: r.p99Ms };
}

const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-issue29-"));
const servers: Server[] = [];
let bareProc: Bun.Subprocess | null = null;
try {
  progress(`building ${BEFORE}`);
  const beforeExe = await buildAt(BEFORE, tmp);
  const ingredients = generateIngredients(1000, SEED);
  const formulas = generateFormulas(ingredients, 200, 12, SEED);
  writeFileSync(join(tmp, "ingredients.csv"), ingredientsCsv(ingredients));
  writeFileSync(join(tmp, "formulas.json"), JSON.stringify(formulas));
  const data = join(tmp, "before.db");
  const port = freePort();
  const first = Bun.spawn([beforeExe, "serve", "--data", data, "--port", String(port)], { stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  while ((await fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.status, () => 0)) === 0) await Bun.sleep(10);
  first.kill("SIGTERM");
  await first.exited;
  await run([beforeExe, "import", "ingredients", join(tmp, "ingredients.csv"), "--data", data]);
  await run([beforeExe, "import", "formulas", join(tmp, "formulas.json"), "--data", data]);
  // Sixteen rounds of changed prices: the price log holds about 16,000 entries, so the PUT runs cross its
  // fold size (16,384) and the fold's cost shows in their tail.
  for (let round = 1; round <= 16; round++) {
    writeFileSync(join(tmp, "round.csv"), ingredientsCsv(ingredients.map((i) => ({ ...i, price: i.price + round / 100 }))));
    await run([beforeExe, "import", "ingredients", join(tmp, "round.csv"), "--update", "--data", data]);
  }
  const keys: string[] = [];
  for (let i = 0; i < 6; i++) keys.push(/fbk_\w+/.exec(await run([beforeExe, "key", "create", "--write", "--rate-limit", "1000000", "--data", data]))![0]);
  copyFileSync(data, join(tmp, "after.db"));
  copyFileSync(data, join(tmp, "commit.db"));
  const before = await serve(beforeExe, data, keys[0]!);
  const after = await serve(EXE, join(tmp, "after.db"), keys[0]!);
  servers.push(before, after);
  const idle = { before: memoryKiB(before.proc.pid, "VmRSS"), after: memoryKiB(after.proc.pid, "VmRSS") };

  // The bare server answers the cached GETs with the bytes this build sends.
  const name = ingredients[7]!.name;
  const formulaId = ((await (await fetch(`${after.url}/v1/formulas`, { headers: { "X-API-Key": keys[0]! } })).json()) as { data: { id: string }[] }).data[3]!.id;
  const getPaths = { ingredient: `/v1/ingredients/${encodeURIComponent(name)}`, formula: `/v1/formulas/${encodeURIComponent(formulaId)}` };
  const captured: CapturedResponse[] = [];
  for (const path of Object.values(getPaths)) {
    const res = await fetch(after.url + path, { headers: { "X-API-Key": keys[0]! } });
    captured.push({ path, status: res.status, headers: [...res.headers.entries()], body: Buffer.from(await res.arrayBuffer()).toString("base64") });
  }
  writeFileSync(join(tmp, "captured.json"), JSON.stringify(captured));
  const barePort = freePort();
  bareProc = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts"), join(tmp, "captured.json"), String(barePort)], { stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  const bareUrl = `http://127.0.0.1:${barePort}`;
  while ((await fetch(bareUrl + getPaths.ingredient).then((r) => r.status, () => 0)) === 0) await Bun.sleep(10);

  const keysFile = join(tmp, "keys.txt");
  writeFileSync(keysFile, keys.slice(1).join("\n") + "\n");
  const file = (label: string, paths: string[]) => {
    const f = join(tmp, `${label}.txt`);
    writeFileSync(f, paths.join("\n") + "\n");
    return f;
  };
  const putFile = file("put", ingredients.slice(0, 200).map((i) => `/v1/prices/${encodeURIComponent(i.name)}`));
  const results: Record<string, Record<string, Wrk[]>> = { put: { after: [], before: [], bare: [] }, ingredient: { after: [], before: [], bare: [] }, formula: { after: [], before: [], bare: [] } };
  let base = 1000;
  for (let rep = 0; rep < REPS; rep++) {
    for (const [label, path] of Object.entries(getPaths)) {
      const f = file(label, [path]);
      for (const side of rep % 2 === 0 ? ["after", "before", "bare"] : ["bare", "before", "after"]) {
        progress(`GET ${label}, ${side}, run ${rep + 1} of ${REPS}`);
        results[label]![side]!.push(await wrk(side === "after" ? after.url : side === "before" ? before.url : bareUrl, "GET", f, keysFile, 0));
      }
    }
    for (const side of rep % 2 === 0 ? ["after", "before", "bare"] : ["bare", "before", "after"]) {
      progress(`PUT, ${side}, run ${rep + 1} of ${REPS}`);
      results.put![side]!.push(side === "bare" ? await bareCommit(join(tmp, "commit.db")) : await wrk(side === "after" ? after.url : before.url, "PUT", putFile, keysFile, (base += 100_000)));
    }
  }
  const peak = { before: memoryKiB(before.proc.pid, "VmHWM"), after: memoryKiB(after.proc.pid, "VmHWM") };
  const m = (xs: Wrk[], pick: (w: Wrk) => number) => medianOf(xs.map(pick));
  const r2 = (x: number) => x.toFixed(2);
  const rows: string[] = [];
  for (const label of ["put", "ingredient", "formula"]) {
    const s = results[label]!;
    const rate = (side: string) => m(s[side]!, (w) => w.rate);
    const p99 = (side: string) => m(s[side]!, (w) => w.p99Ms);
    rows.push(
      `| ${label === "put" ? "PUT /v1/prices/:name" : label === "ingredient" ? "GET /v1/ingredients/:name (cached)" : "GET /v1/formulas/:id (cached)"} | ${Math.round(rate("after")).toLocaleString("en-US")} | ${Math.round(rate("before")).toLocaleString("en-US")} | ${Math.round(rate("bare")).toLocaleString("en-US")} | ` +
        `**${r2(rate("after") / rate("before"))}** | **${r2(rate("after") / rate("bare"))}** (before ${r2(rate("before") / rate("bare"))}) | ${p99("after").toFixed(1)} | ${p99("before").toFixed(1)} | ${p99("bare").toFixed(1)} | **${r2(p99("after") / p99("bare"))}** (before ${r2(p99("before") / p99("bare"))}) |`,
    );
  }
  const mib = (kib: number) => (kib / 1024).toFixed(0);
  const section = [
      "## Issue 29: write tail, cached reads and memory against the build before",
      "",
      `From bench/issue29.ts, ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} cores (load average per core at the end ${(loadavg()[0]! / cpus().length).toFixed(2)}): this build (${EXE.replace(ROOT + "/", "")}) against ${BEFORE} and the bare limits (bench/bare-server.ts on the same bytes; bench/bare-commit.ts with 32 writers for PUT), ${REPS} alternating wrk -t2 -c32 ${SECONDS} s runs per side, medians.`,
      "",
      "| request | req/s now | req/s before | req/s bare | throughput now ÷ before | now ÷ bare | p99 ms now | before | bare | p99 now ÷ bare |",
      "|---|---:|---:|---:|---|---|---:|---:|---:|---|",
      ...rows,
      "",
      `Resident memory of the two servers: idle after start ${mib(idle.after)} MiB now, ${mib(idle.before)} MiB before; peak over the run ${mib(peak.after)} MiB now, ${mib(peak.before)} MiB before.`,
  ];
  writeSection(section);
  console.log(section.join("\n"));
} finally {
  for (const server of servers) await stop(server).catch(() => {});
  bareProc?.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
}
