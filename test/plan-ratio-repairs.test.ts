/**
 * A plan no mix can meet names a formula's ratio limit among its single-limit repairs when moving that
 * ratio alone makes it feasible (issue 31; before, a plan's ratio limits were never tried): the best
 * ratio the line reaches under the supply, checked against GLPK on the plan's LP written out here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanResult } from "../src/schemas/plans.ts";
import { glpkSolve } from "./helpers/glpk-lp.ts";
import { cli, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";

const tmp = tempDir();
let t: TestServer;
let read: string;

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  const write = t.key({ write: true });
  const csv = join(tmp.dir, "i.csv");
  // P:Q of A is 4, of B 1.
  writeFileSync(csv, "name,category,price,inStock,P,Q\nA,Test,300,yes,4,1\nB,Test,100,yes,1,1\n");
  expect((await cli(["import", "ingredients", csv, "--no-events", "--data", t.dataPath])).code).toBe(0);
  const formulas = join(tmp.dir, "f.json");
  const f = { id: "f", name: "F", species: "Poultry", subcategory: "Test", batchSize: 1000, ingredients: [{ name: "A", percent: 50 }, { name: "B", percent: 50 }], constraints: { nutrients: [], ingredients: [], ratios: [{ numerator: "P", denominator: "Q", min: 2, max: null }] } };
  writeFileSync(formulas, JSON.stringify([f]));
  expect((await cli(["import", "formulas", formulas, "--no-events", "--data", t.dataPath])).code).toBe(0);
  // 100 t of F must take at least 80 t of B: P:Q is then at most (0.2 × 4 + 0.8) / 1 = 1.6 < 2.
  expect((await t.request("PUT", "/v1/plans/p", { key: write, body: { name: "P", lines: [{ formula: "f", tons: 100 }], supply: [{ name: "B", minTons: 80, maxTons: null }] } })).status).toBe(201);
});
afterAll(async () => {
  await t.stop();
  tmp.cleanup();
});

/** GLPK on the plan's LP with the ratio's min at `limit`: x = (A %, B %), Σ = 100, (4 − L)·A + (1 − L)·B ≥ 0, B tons ≥ 80. */
const feasibleAt = async (limit: number) =>
  (await glpkSolve({
    cost: [3, 1],
    colLower: [0, 0],
    colUpper: [Infinity, Infinity],
    rows: [
      { coefficients: [1, 1], lower: 100, upper: 100 },
      { coefficients: [4 - limit, 1 - limit], lower: 0, upper: Infinity },
      { coefficients: [0, 1], lower: 80, upper: Infinity },
    ],
  })) !== null;

describe("a plan's ratio limits among its repairs", () => {
  test("the ratio moved alone to the best its line reaches under the supply makes the plan feasible (GLPK), a step short of it does not", async () => {
    const r: PlanResult = (await (await t.request("GET", "/v1/plans/p/optimize", { key: read })).json()).data;
    expect(r.status).toBe("infeasible");
    const ratio = r.conflicts.find((c) => c.kind === "ratio")!;
    expect(ratio).toMatchObject({ kind: "ratio", formula: "f", numerator: "P", denominator: "Q", bound: "min", limit: 2, bestAchievable: 1.6 });
    expect(await feasibleAt(ratio.bestAchievable!)).toBe(true);
    expect(await feasibleAt(ratio.bestAchievable! + 2e-4)).toBe(false);
    // The supply bound is a repair too, and the list is ordered by the relative move (|66.666 − 80| / 80 < |1.6 − 2| / 2).
    expect(r.conflicts.map((c) => c.kind)).toEqual(["supply", "ratio"]);
    expect(r.conflicts[0]).toMatchObject({ kind: "supply", name: "B", bound: "min", limit: 80, bestAchievable: 66.666 });
  });
});
