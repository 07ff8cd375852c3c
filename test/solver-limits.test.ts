/**
 * Issue 26, points 3 and 5, and the size limits: numbers the solver cannot take are refused where they
 * enter (a what-if price, a formula's bounds), a problem over a size limit is a 400 naming the limit
 * before any solve (and one row of the worklist, not the worklist), a HiGHS that gives up costs only
 * its own request (422) and its worker, and a min above its max of the same nutrient is the conflict.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdminStore } from "../src/admin/ops.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { createLogger } from "../src/log.ts";
import { optimizeInput } from "../src/optimize/optimize-task.ts";
import { SolverPool } from "../src/optimize/pool.ts";
import { NO_OPTIONS } from "../src/optimize/result.ts";
import { SolverFailure } from "../src/optimize/solver-errors.ts";
import type { OptimizeResult, SavingsItem } from "../src/schemas/optimize.ts";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

const NOW = "2026-11-23T08:00:00.000Z";
let t: TestServer;
let store: AdminStore;
let key: string;

const formula = (id: string, constraints: unknown) => ({ id, name: id, species: "Poultry", subcategory: "Test", batchSize: 1000, ingredients: [{ name: "Maize", percent: 60 }, { name: "Soybean meal 48%", percent: 40 }], constraints });
const importFormula = (f: unknown) => store.importFormulas(1, readFormulaFile(JSON.stringify([f])), { replace: false, now: NOW });

beforeAll(async () => {
  t = await startTestServer({ solver: { workers: 1 } });
  store = await openTestStore(t.dataPath);
  await store.seedDemo(NOW);
  // 1,000 nutrient limits and one inclusion limit: 1,001 limits, each allowed by the import.
  const many = Array.from({ length: 1000 }, (_, k) => ({ key: `N${k}`, min: 0, max: null }));
  await importFormula(formula("too-many-limits", { nutrients: many, ingredients: [{ name: "Maize", min: 10, max: null }] }));
  await importFormula(formula("crossed", { nutrients: [{ key: "CP", min: 14, max: null }, { key: "CP", min: null, max: 13.9999999 }] }));
  key = t.key();
});
afterAll(async () => {
  await store.close();
  await t.stop();
});

const get = (path: string) => t.request("GET", path, { key });
async function refusal(path: string): Promise<{ status: number; message: string }> {
  const res = await get(path);
  return { status: res.status, message: (await res.json()).message };
}

describe("numbers the solver cannot take", () => {
  test("a what-if price over 1e9 is a 400 naming the rule, not a 500", async () => {
    expect(await refusal("/v1/formulas/broiler-starter/optimize?price=Maize%3D1e20")).toEqual({ status: 400, message: "price must be NAME=VALUE with VALUE a number <= 1000000000" });
    expect(await refusal("/v1/formulas/broiler-starter/optimize?price=Maize%3D1000000001")).toEqual({ status: 400, message: "price must be NAME=VALUE with VALUE a number <= 1000000000" });
    expect((await get("/v1/formulas/broiler-starter/optimize?price=Maize%3D1e9")).status).toBe(200);
  });

  test("the import refuses a bound beyond ±1e9 instead of storing it", async () => {
    for (const [constraints, where] of [
      [{ nutrients: [{ key: "CP", min: 1e300, max: null }] }, "constraints.nutrients[0]: min must be a number <= 1000000000"],
      [{ nutrients: [{ key: "CP", min: null, max: -2e9 }] }, "constraints.nutrients[0]: max must be a number >= -1000000000"],
      [{ ratios: [{ numerator: "Ca", denominator: "avP", min: 1e10, max: null }] }, "constraints.ratios[0]: min must be a number <= 1000000000"],
    ] as const) {
      expect(() => readFormulaFile(JSON.stringify([formula("huge-bound", constraints)]))).toThrow(`Formula 1 "huge-bound" (huge-bound): ${where}`);
    }
    const file = `${t.dataPath}.formulas.json`;
    await Bun.write(file, JSON.stringify([formula("huge-bound", { nutrients: [{ key: "CP", min: 1e300, max: null }] })]));
    const r = await cli(["import", "formulas", file, "--data", t.dataPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("min must be a number <= 1000000000");
  });
});

describe("size limits, checked before any solve", () => {
  test("more candidates than one solve takes: 400 naming the limit", async () => {
    const names = Array.from({ length: 501 }, (_, i) => `Extra%20${i}`).join(",");
    expect(await refusal(`/v1/formulas/broiler-starter/optimize?include=${names}`)).toEqual({ status: 400, message: "Too many candidates for one solve: 501 (at most 500)" });
  });

  test("more limits than one solve takes: 400 on optimize, one error row of the worklist", async () => {
    expect(await refusal("/v1/formulas/too-many-limits/optimize")).toEqual({ status: 400, message: "Too many limits for one solve: 1,001 (at most 1,000)" });
    const res = await get("/v1/reports/savings");
    expect(res.status).toBe(200);
    const items: SavingsItem[] = (await res.json()).data;
    expect(items.find((i) => i.id === "too-many-limits")).toMatchObject({ status: "error", message: "Too many limits for one solve: 1,001 (at most 1,000)", saving: null });
    expect(items.filter((i) => i.status === "optimal").length).toBeGreaterThan(3);
  });

  test("the CLI refuses it in one line, without a stack trace; its worklist says why under the table", async () => {
    const r = await cli(["formula", "optimize", "too-many-limits", "--data", t.dataPath]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: "error: Too many limits for one solve: 1,001 (at most 1,000)\n" });
    const report = await cli(["report", "savings", "--data", t.dataPath]);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/^too-many-limits\s+too-many-limits\s+error\s+\d+\.\d{2}\s+-/m);
    expect(report.stdout).toEndWith("too-many-limits: Too many limits for one solve: 1,001 (at most 1,000)\n");
  });
});

describe("conflicts", () => {
  test("CP min 14 with CP max 13.9999999: infeasible, and the two bounds are the conflict", async () => {
    const res = await get("/v1/formulas/crossed/optimize");
    expect(res.status).toBe(200);
    const r: OptimizeResult = (await res.json()).data;
    expect(r.status).toBe("infeasible");
    const named = r.conflicts.map((c) => ({ kind: c.kind, key: c.key, bound: c.bound, limit: c.limit }));
    expect(named.sort((a, b) => a.limit - b.limit)).toEqual([
      { kind: "nutrient", key: "CP", bound: "max", limit: 13.9999999 },
      { kind: "nutrient", key: "CP", bound: "min", limit: 14 },
    ]);
  });
});

describe("a HiGHS that gives up", () => {
  test("fails its own task (SolverFailure, 422 over HTTP) and its worker is replaced: the next task is answered", async () => {
    const pool = new SolverPool({ size: 1, timeoutMs: 10_000, maxQueue: 4, logger: createLogger(() => {}) });
    try {
      const [f, details] = await Promise.all([store.requireFormula(1, "broiler-starter"), store.listIngredientDetails(1)]);
      const byName = new Map(details.map((d) => [d.name, d]));
      const input = optimizeInput(f, (n) => byName.get(n) ?? null, NO_OPTIONS);
      // A bound stored before the import refused it: HiGHS refuses the model.
      const broken = { ...input, formula: { ...f, constraints: { ...f.constraints, nutrients: [{ key: "CP", min: 1e300, max: null }] } } };
      const failure = await pool.run("optimize", broken).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SolverFailure);
      expect((failure as Error).message).toStartWith("The solver could not solve this problem (");
      expect((await pool.run("optimize", input)).status).toBe("optimal");
      expect(pool.stats()).toMatchObject({ workers: 1, alive: 1, busy: 0, queued: 0 });
    } finally {
      pool.close();
    }
  });
});
