/**
 * The least-cost figures of `make bench` (docs/decisions.md#least-cost-formulation):
 *
 * 1. Solve time in-process (the whole answer: solve, sensitivity, rounding) for each demo formula and
 *    for a seeded 60-candidate × 30-limit formula: median, p90 and max over repeated solves.
 * 2. The worklist over 200 formulas (bench/dataset.ts's, on 1,000 ingredients), in-process: total time
 *    and the longest single solve, which is the longest any other request waits behind it.
 * 3. Over HTTP on the compiled executable: GET /v1/formulas/:id/optimize answered from the cache against
 *    the plain read GET /v1/formulas/:id, as the ratio of wrk throughputs (runs alternate); and the
 *    first, computed answer of each route.
 *
 * Run alone: `bun bench/optimize.ts [dist/feedbase]` prints the RESULTS.md section and writes it into
 * bench/RESULTS.md (replacing its own section); `make bench` runs it after bench/run.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { writeSection } from "./results-file.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Highs } from "highs";
import { importFormulas } from "../src/admin/imports.ts";
import { seedDemo } from "../src/demo/seed.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import { seeded } from "../src/domain/random.ts";
import { buildProblem, type Candidate } from "../src/optimize/model.ts";
import { NO_OPTIONS, optimizeFormula, type FormulaToOptimize } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { solveLeastCost } from "../src/optimize/solve.ts";
import { savingsWorklist } from "../src/optimize/worklist.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { openDatabase } from "../src/store/db.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { listIngredientDetails, type IngredientDetail } from "../src/store/ingredients.ts";
import { createKey } from "../src/store/keys.ts";
import { requireWorkspace } from "../src/store/workspaces.ts";
import { generateFormulas, generateIngredients, seedIngredients, SEED } from "./dataset.ts";
import { medianOf, quantile, serve, stop, wrk, type Server } from "./history.ts";
import { waitForIdle } from "./system.ts";

const ROOT = join(import.meta.dir, "..");
const HEADING = "## Least-cost formulation";
const SOLVES = { demo: 30, large: 60, worklist: 3 } as const;
const LARGE = { candidates: 60, limits: 30 } as const;
const WRK_REPS = 3;
const progress = (msg: string) => process.stderr.write(`[bench optimize] ${msg}\n`);

interface Spread {
  medianMs: number;
  p90Ms: number;
  maxMs: number;
}
const spread = (ms: number[]): Spread => ({ medianMs: medianOf(ms), p90Ms: quantile(ms, 0.9), maxMs: Math.max(...ms) });

function timed(n: number, work: () => unknown): number[] {
  for (let i = 0; i < 3; i++) work(); // warm-up
  return Array.from({ length: n }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
}

/**
 * A feasible formula of 60 candidates and 30 nutrient limits (min on each, max on every other one),
 * set around a random mix of the candidates so a solution exists.
 */
export function largeFormula(): { formula: FormulaToOptimize; lookup: (name: string) => IngredientDetail | null } {
  const next = seeded(SEED + 60);
  const keys = Array.from({ length: LARGE.limits }, (_, k) => `N${k}`);
  const details = Array.from({ length: LARGE.candidates }, (_, j): IngredientDetail => ({
    name: `Candidate ${j}`,
    category: "Bench",
    price: Math.round((100 + next() * 1400) * 100) / 100,
    inStock: true,
    co2e: null,
    nutrients: Object.fromEntries(keys.map((k) => [k, Math.round(next() * 6000) / 100])),
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  }));
  const weights = details.map(() => next());
  const total = weights.reduce((a, b) => a + b, 0);
  const mix = weights.map((w) => (w / total) * 100);
  const level = (key: string) => details.reduce((s, d, j) => s + (d.nutrients[key]! * mix[j]!) / 100, 0);
  const byName = new Map(details.map((d) => [d.name, d]));
  return {
    formula: {
      id: "bench-60x30",
      name: "60 candidates × 30 limits",
      batchSize: 1000,
      ingredients: details.map((d, j) => ({ name: d.name, percent: mix[j]!, price: d.price })),
      constraints: { nutrients: keys.map((key, k) => ({ key, min: level(key) * 0.98, max: k % 2 === 0 ? level(key) * 1.03 : null })), ingredients: [], ratios: [] },
    },
    lookup: (name) => byName.get(name) ?? null,
  };
}

export interface OptimizeBench {
  demo: { id: string; candidates: number; limits: number; degenerate: boolean; spread: Spread }[];
  large: { degenerate: boolean; spread: Spread };
  worklist: { formulas: number; totalMs: number[]; longestSolveMs: number; infeasible: number };
  http: { rps: Record<"optimize" | "detail" | "list", number[]>; bytes: Record<string, number>; firstOptimizeMs: number; firstWorklistMs: number; cachedWorklistMs: number } | null;
}

function demoFigures(highs: Highs, tmp: string): OptimizeBench["demo"] {
  const db = openDatabase(join(tmp, "demo.db"), { create: true });
  try {
    seedDemo(db, new Date().toISOString());
    const ingredients = new Map(listIngredientDetails(db, 1).map((i) => [i.name, i]));
    const lookup = (name: string) => ingredients.get(name) ?? null;
    return listFormulaDetails(db, 1).map((f) => {
      const ms = timed(SOLVES.demo, () => optimizeFormula(highs, f, lookup, NO_OPTIONS));
      const candidates: Candidate[] = [...new Set([...f.ingredients.map((r) => r.name), ...f.constraints.ingredients.map((c) => c.name)])].map((name) => ({ ...lookup(name)!, held: false }));
      const outcome = solveLeastCost(highs, buildProblem(candidates, f.constraints));
      const limits = f.constraints.nutrients.length + f.constraints.ingredients.length + f.constraints.ratios.length;
      return { id: f.id, candidates: candidates.length, limits, degenerate: outcome.status === "optimal" && outcome.sensitivity.degenerate, spread: spread(ms) };
    });
  } finally {
    db.close();
  }
}

async function worklistFigures(highs: Highs, tmp: string): Promise<OptimizeBench["worklist"]> {
  const dataPath = join(tmp, "worklist.db");
  const generated = generateIngredients(1000, SEED);
  seedIngredients(dataPath, generated);
  const db = openDatabase(dataPath, { create: false });
  try {
    importFormulas(db, 1, parseFormulaFile(generateFormulas(generated, 200, 12, SEED)), { replace: false, now: "2026-01-05T08:00:00.000Z" });
    const formulas = listFormulaDetails(db, 1);
    const ingredients = new Map(listIngredientDetails(db, 1).map((i) => [i.name, i]));
    const lookup = (name: string) => ingredients.get(name) ?? null;
    const totalMs: number[] = [];
    let items = await savingsWorklist(solveInProcess, formulas, lookup);
    for (let i = 0; i < SOLVES.worklist; i++) {
      const started = performance.now();
      items = await savingsWorklist(solveInProcess, formulas, lookup);
      totalMs.push(performance.now() - started);
    }
    const single = formulas.map((f) => timed(1, () => optimizeFormula(highs, f, lookup, NO_OPTIONS))[0]!);
    return { formulas: formulas.length, totalMs, longestSolveMs: Math.max(...single), infeasible: items.filter((i) => i.status === "infeasible").length };
  } finally {
    db.close();
  }
}

async function httpFigures(exe: string, tmp: string): Promise<OptimizeBench["http"]> {
  const dataPath = join(tmp, "demo.db");
  const db = openDatabase(dataPath, { create: false });
  const workspaceId = requireWorkspace(db, "default").id;
  const makeKey = () => createKey(db, { workspaceId, write: false, rateLimit: 1_000_000, label: "bench optimize", now: new Date().toISOString() }).key;
  const key = makeKey();
  // A key per wrk run: on a quiet machine three cached-read runs pass one key's 1,000,000 an hour.
  const runKeys = Array.from({ length: WRK_REPS * 3 }, makeKey);
  db.close();
  const worklistDb = join(tmp, "worklist.db");
  const wdb = openDatabase(worklistDb, { create: false });
  const worklistKey = createKey(wdb, { workspaceId: 1, write: false, rateLimit: 1_000_000, label: "bench optimize", now: new Date().toISOString() }).key;
  wdb.close();
  const servers: Server[] = [];
  try {
    const server = await serve(exe, dataPath, key);
    servers.push(server);
    const first = async (url: string, k: string, path: string) => {
      const started = performance.now();
      const res = await fetch(url + path, { headers: { "X-API-Key": k } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      return performance.now() - started;
    };
    // The file's pages, the solver's compilation at start-up and the route's first use are not the figure.
    await first(server.url, key, "/v1/formulas/broiler-starter");
    await first(server.url, key, "/v1/formulas/layer-phase-1/optimize");
    const firstOptimizeMs = await first(server.url, key, "/v1/formulas/broiler-starter/optimize");
    const keysFile = join(tmp, "keys.txt");
    const paths = { optimize: "/v1/formulas/broiler-starter/optimize", detail: "/v1/formulas/broiler-starter", list: "/v1/ingredients" };
    const bytes: Record<string, number> = {};
    for (const [side, path] of Object.entries(paths)) {
      writeFileSync(join(tmp, `${side}.txt`), path + "\n");
      bytes[side] = (await (await fetch(server.url + path, { headers: { "X-API-Key": key } })).arrayBuffer()).byteLength;
    }
    const rps = { optimize: [] as number[], detail: [] as number[], list: [] as number[] };
    let base = 1000;
    for (let rep = 0; rep < WRK_REPS; rep++) {
      for (const side of ["optimize", "detail", "list"] as const) {
        progress(`wrk GET ${paths[side]}, run ${rep + 1} of ${WRK_REPS}`);
        await waitForIdle(1500);
        writeFileSync(keysFile, runKeys.pop()! + "\n");
        rps[side].push((await wrk(server.url, "GET", join(tmp, `${side}.txt`), keysFile, (base += 10_000))).rate);
      }
    }
    await stop(server);
    servers.pop();
    const worklistServer = await serve(exe, worklistDb, worklistKey);
    servers.push(worklistServer);
    await first(worklistServer.url, worklistKey, "/v1/formulas/frm_bench00000000001/optimize");
    const firstWorklistMs = await first(worklistServer.url, worklistKey, "/v1/reports/savings");
    const cachedWorklistMs = await first(worklistServer.url, worklistKey, "/v1/reports/savings");
    return { rps, bytes, firstOptimizeMs, firstWorklistMs, cachedWorklistMs };
  } finally {
    for (const s of servers) await stop(s);
  }
}

/**
 * Everything above, in a temporary directory; `exe` is the executable for the HTTP figures (null: skip them).
 * @example const figures = await benchOptimize("dist/feedbase")
 */
export async function benchOptimize(exe: string | null): Promise<OptimizeBench> {
  const tmp = mkdtempSync(join(tmpdir(), "feedbase-bench-optimize-"));
  try {
    const highs = await solverRuntime();
    progress(`demo formulas, ${SOLVES.demo} solves each`);
    const demo = demoFigures(highs, tmp);
    progress(`${LARGE.candidates} candidates × ${LARGE.limits} limits, ${SOLVES.large} solves`);
    const large = largeFormula();
    const ms = timed(SOLVES.large, () => optimizeFormula(highs, large.formula, large.lookup, NO_OPTIONS));
    const candidates = large.formula.ingredients.map((r) => ({ ...large.lookup(r.name)!, held: false }));
    const outcome = solveLeastCost(highs, buildProblem(candidates, large.formula.constraints));
    progress("the worklist over 200 formulas");
    const worklist = await worklistFigures(highs, tmp);
    const http = exe ? await httpFigures(exe, tmp) : null;
    return { demo, large: { degenerate: outcome.status === "optimal" && outcome.sensitivity.degenerate, spread: spread(ms) }, worklist, http };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

/**
 * The RESULTS.md section for these figures.
 * @example renderOptimize(await benchOptimize(exe)).join("\n")
 */
export function renderOptimize(b: OptimizeBench): string[] {
  const out = [HEADING, "", `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/optimize.ts\` on a shared 2-core machine (figures are for reading, not asserted).`, ""];
  out.push("Solve time in-process: one whole answer (solve, shadow prices, ranges, rounding), ms.", "");
  out.push("| formula | candidates | limits | degenerate | median | p90 | max |", "|---|---:|---:|---|---:|---:|---:|");
  for (const d of b.demo) out.push(`| ${d.id} | ${d.candidates} | ${d.limits} | ${d.degenerate ? "yes" : "no"} | ${f2(d.spread.medianMs)} | ${f2(d.spread.p90Ms)} | ${f2(d.spread.maxMs)} |`);
  const l = b.large;
  out.push(`| 60 × 30 (seeded) | ${LARGE.candidates} | ${LARGE.limits} | ${l.degenerate ? "yes" : "no"} | **${f2(l.spread.medianMs)}** | ${f2(l.spread.p90Ms)} | ${f2(l.spread.maxMs)} |`, "");
  out.push(`The 60 × 30 median is ${l.spread.medianMs < 10 ? "under" : "OVER"} the 10 ms target.`, "");
  const w = b.worklist;
  out.push(
    `Worklist over ${w.formulas} formulas (12 lines, 6 nutrient and 3 inclusion limits each; ${w.infeasible} infeasible): ${f1(medianOf(w.totalMs))} ms in all (median of ${w.totalMs.length}), ` +
      `${f2(medianOf(w.totalMs) / w.formulas)} ms a formula; the longest single solve, the longest another request waits behind it, ${f2(w.longestSolveMs)} ms.`,
    "",
  );
  if (b.http) {
    const h = b.http;
    const m = (side: "optimize" | "detail" | "list") => medianOf(h.rps[side]);
    out.push(
      `Over HTTP (dist/feedbase, wrk ${WRK_REPS} alternating runs, requests/s medians): GET /v1/formulas/:id/optimize answered from the cache (${h.bytes.optimize} bytes) ${Math.round(m("optimize"))}, ` +
        `${f2(m("optimize") / m("list"))} × GET /v1/ingredients, a cached read of the same size (${h.bytes.list} bytes, ${Math.round(m("list"))}), ` +
        `and ${f2(m("optimize") / m("detail"))} × GET /v1/formulas/:id (${h.bytes.detail} bytes, ${Math.round(m("detail"))}). ` +
        `First, computed answers: optimize ${f1(h.firstOptimizeMs)} ms; the worklist over ${w.formulas} formulas ${f1(h.firstWorklistMs)} ms, then ${f1(h.cachedWorklistMs)} ms from the cache.`,
    );
  } else out.push("HTTP figures skipped: no executable given.");
  return out;
}

if (import.meta.main) {
  const exe = process.argv[2] ?? join(ROOT, "dist", "feedbase");
  const figures = await benchOptimize(exe);
  const section = renderOptimize(figures);
  process.stdout.write(section.join("\n") + "\n");
  writeSection(section);
  process.exit(0);
}
