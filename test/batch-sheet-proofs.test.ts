/**
 * Proofs that batch sheets are right (docs/decisions.md#batch-sheets): on small seeded cases the sheet
 * is the one an exhaustive search over every whole number of steps picks (cost, then Σ |deviation|,
 * then the name that sorts first gets more); on the demo formulas every limit holds exactly on the
 * amounts shown and the cost equals GLPK's integer optimum (an independent solver).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import GLPK from "glpk.js/node";
import type { Highs } from "highs";
import { seedDemo } from "../src/demo/seed.ts";
import { batchSheet, cheapestByHighs, sheetProgram, type BatchSheet } from "../src/optimize/batch-sheet.ts";
import { branchGrid } from "../src/optimize/grid-branch.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { openDatabase } from "../src/store/db.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { findIngredient } from "../src/store/ingredients.ts";
import { exactKg, exhaustiveSheet, fadd, fcmp, frac, missedLimits, smallSheetCase, stepOf, type Frac, type SheetCase } from "./helpers/batch-exhaustive.ts";
import { tempDir } from "./helpers/harness.ts";
import { seeded } from "./helpers/random.ts";

const SMALL_CASES = 80;
let highs: Highs;
const demo: (SheetCase & { id: string })[] = [];

beforeAll(async () => {
  highs = await solverRuntime();
  const tmp = tempDir();
  const db = openDatabase(`${tmp.dir}/demo.db`, { create: true });
  seedDemo(db, "2026-11-23T00:00:00.000Z");
  for (const f of listFormulaDetails(db, 1)) {
    const rows = f.ingredients.map((r) => {
      const i = findIngredient(db, 1, r.name)!;
      return { name: r.name, percent: r.percent, price: i.price, nutrients: i.nutrients };
    });
    demo.push({ id: f.id, size: 2000, resolution: 0.5, micro: { resolution: 0.01, below: 20 }, rows, constraints: f.constraints });
  }
  db.close();
  tmp.cleanup();
});

const sheetOf = (c: SheetCase, id = "case") => batchSheet(highs, { id, name: id, ...c });
const amounts = (s: BatchSheet) => new Map(s.lines.map((l) => [l.name, frac(l.kg)]));
const canonical = (v: Frac): string => (v.q > 0 && v.p % 10n === 0n ? canonical({ p: v.p / 10n, q: v.q - 1 }) : `${v.p}e-${v.q}`);
const shown = (m: ReadonlyMap<string, Frac>) => Object.fromEntries([...m].map(([k, v]) => [k, canonical(v)]).sort());

/** Whole steps that sum to the batch, checked exactly. */
function checkSteps(label: string, c: SheetCase, s: BatchSheet) {
  const steps = stepOf(c);
  let total: Frac = { p: 0n, q: 0 };
  for (const line of s.lines) {
    const kg = frac(line.kg);
    const step = steps.get(line.name)!;
    const q = Math.max(kg.q, step.q);
    expect({ label, line: line.name, wholeSteps: (kg.p * 10n ** BigInt(q - kg.q)) % (step.p * 10n ** BigInt(q - step.q)) === 0n }).toEqual({ label, line: line.name, wholeSteps: true });
    expect({ label, line: line.name, step: line.step }).toEqual({ label, line: line.name, step: Number(`${step.p}e-${step.q}`) });
    total = fadd(total, kg);
  }
  expect({ label, sum: fcmp(total, frac(c.size)) }).toEqual({ label, sum: 0 });
}

describe("batch sheets on small cases", () => {
  test("are the sheet an exhaustive search picks: same status, same amounts, every limit exact, conflicts = the limits the nearest amounts miss", () => {
    let infeasible = 0;
    let micro = 0;
    for (let seed = 1; seed <= SMALL_CASES; seed++) {
      const c = smallSheetCase(seed);
      const label = `seed ${seed}`;
      const ours = sheetOf(c);
      const theirs = exhaustiveSheet(c);
      expect({ label, status: ours.status }).toEqual({ label, status: theirs.status });
      expect({ label, kg: shown(amounts(ours)) }).toEqual({ label, kg: shown(theirs.kg) });
      checkSteps(label, c, ours);
      const misses = missedLimits(c, amounts(ours));
      if (ours.status === "optimal") expect({ label, misses }).toEqual({ label, misses: [] });
      else {
        infeasible++;
        const named = ours.conflicts.map((x) => ({ kind: x.kind, target: x.kind === "nutrient" ? x.key : x.kind === "ingredient" ? x.name : `${x.numerator}/${x.denominator}`, bound: x.bound }));
        const key = (m: { kind: string; target: string; bound: string }) => `${m.kind} ${m.target} ${m.bound}`;
        expect({ label, conflicts: named.map(key).sort() }).toEqual({ label, conflicts: misses.map(key).sort() });
      }
      if (ours.lines.some((l) => l.scale === "micro")) micro++;
      // exactKg and deviationKg as the contract defines them.
      const exact = exactKg(c);
      for (const line of ours.lines) expect({ label, exactKg: line.exactKg }).toEqual({ label, exactKg: Math.round(Number(`${exact.get(line.name)!.p}e-${exact.get(line.name)!.q}`) * 1000) / 1000 });
    }
    // The seeds cover both outcomes and both scales.
    expect(infeasible).toBeGreaterThan(3);
    expect(infeasible).toBeLessThan(SMALL_CASES - 10);
    expect(micro).toBeGreaterThan(3);
  });
});

describe("our own branch and bound (grid-branch.ts)", () => {
  // A guard for the search itself (the sheets above go through it too, but would pass on the HiGHS fallback alone).
  test("settles 300 seeded small cases without falling back to HiGHS, each the exhaustive search's status and amounts", () => {
    let settled = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const c = smallSheetCase(seed);
      const label = `seed ${seed}`;
      const program = sheetProgram({ id: label, name: label, ...c });
      const found = branchGrid(program);
      if (found !== null) settled++;
      const theirs = exhaustiveSheet(c);
      expect({ label, status: found?.status }).toEqual({ label, status: theirs.status });
      if (found?.status !== "optimal") continue;
      const kg = new Map(program.lines.map((l, i) => [l.name, { p: program.steps[i]! * found.n[i]!, q: program.scale }]));
      expect({ label, kg: shown(kg) }).toEqual({ label, kg: shown(theirs.kg) });
    }
    expect(settled).toBe(300);
  });

  test("gives the amounts of HiGHS's three stages on seeded 12-line formulas with micro lines and equal prices", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const c = mediumCase(seed);
      const label = `seed ${seed}`;
      const program = sheetProgram({ id: label, name: label, ...c });
      const found = branchGrid(program);
      const theirs = cheapestByHighs(highs, program);
      expect({ label, status: found?.status }).toEqual({ label, status: theirs === null ? "infeasible" : "optimal" });
      if (found?.status === "optimal") expect({ label, n: found.n.map(String) }).toEqual({ label, n: theirs!.map(String) });
    }
  });
});

/**
 * 12 lines (2 of them under 2 % so weighed on a 0.01 kg micro scale, a third of the prices equal) and
 * 6 nutrient limits around the saved mix, a 500 kg batch on a 0.5 kg scale: too big for the
 * exhaustive search, small enough for HiGHS's stages in a test.
 */
function mediumCase(seed: number): SheetCase {
  const rnd = seeded(seed * 7919);
  const keys = ["CP", "ME", "Ca", "P", "Lys", "Fat"];
  const weights = Array.from({ length: 12 }, (_, j) => (j < 2 ? 0.01 + rnd() * 0.01 : 0.2 + rnd()));
  const total = weights.reduce((a, b) => a + b, 0);
  const percents = weights.map((w) => Math.round((w / total) * 1e6) / 1e4);
  percents[11] = Math.round((100 - percents.slice(0, -1).reduce((a, b) => a + b, 0)) * 1e4) / 1e4;
  const rows = percents.map((percent, j) => ({
    name: `Line ${String.fromCharCode(65 + ((j * 7) % 12))}`,
    percent,
    price: rnd() < 0.33 ? 250 : Math.round(100 + rnd() * 90_000) / 100,
    nutrients: Object.fromEntries(keys.map((k) => [k, Math.round(rnd() * 5000) / 100])),
  }));
  const level = (key: string) => rows.reduce((s, r) => s + (r.nutrients[key]! * r.percent) / 100, 0);
  const nutrients = keys.map((key, k) => ({ key, min: Math.round(level(key) * 0.99 * 100) / 100, max: k % 2 === 0 ? Math.round(level(key) * 1.02 * 100) / 100 : null }));
  return { size: 500, resolution: 0.5, micro: { resolution: 0.01, below: 10 }, rows, constraints: { nutrients, ingredients: [], ratios: [] } };
}

describe("batch sheets of the demo formulas", () => {
  test("keep every limit exactly on the amounts shown, in whole steps summing to the batch, lines in order of addition", () => {
    for (const c of demo) {
      const s = sheetOf(c, c.id);
      checkSteps(c.id, c, s);
      if (s.status === "optimal") expect({ id: c.id, misses: missedLimits(c, amounts(s)) }).toEqual({ id: c.id, misses: [] });
      const inOrder = s.lines.every((l, k) => {
        const next = s.lines[k + 1];
        if (!next || l.scale !== next.scale) return !next || l.scale === "macro";
        return l.kg > next.kg || (l.kg === next.kg && Buffer.compare(Buffer.from(l.name), Buffer.from(next.name)) < 0);
      });
      expect({ id: c.id, inOrder }).toEqual({ id: c.id, inOrder: true });
    }
  });

  test("cost the same as GLPK's integer optimum over the same whole steps (an independent solver)", async () => {
    const glpk = await GLPK();
    for (const c of demo.slice(0, 4)) {
      const s = sheetOf(c, c.id);
      const steps = stepOf(c);
      const size = c.size;
      const vars = c.rows.map((_, j) => `n${j}`);
      const stepNumber = (name: string) => Number(`${steps.get(name)!.p}e-${steps.get(name)!.q}`);
      const level = (f: (row: SheetCase["rows"][number]) => number) => c.rows.map((r, j) => ({ name: vars[j]!, coef: f(r) * stepNumber(r.name) })).filter((v) => v.coef !== 0);
      const bnds = (min: number | null, max: number | null) =>
        min !== null && max !== null ? (min === max ? { type: glpk.GLP_FX, lb: min, ub: max } : { type: glpk.GLP_DB, lb: min, ub: max }) : min !== null ? { type: glpk.GLP_LO, lb: min, ub: 0 } : { type: glpk.GLP_UP, lb: 0, ub: max! };
      const eps = 1e-9;
      const subjectTo = [
        { name: "sum", vars: level(() => 1), bnds: { type: glpk.GLP_FX, lb: size, ub: size } },
        ...c.constraints.nutrients.filter((n) => n.min !== null || n.max !== null).map((n, k) => ({ name: `n${k}`, vars: level((r) => (r.nutrients[n.key] ?? 0) / size), bnds: bnds(n.min === null ? null : n.min - eps, n.max === null ? null : n.max + eps) })),
        ...c.constraints.ingredients.filter((i) => c.rows.some((r) => r.name === i.name)).map((i, k) => ({ name: `i${k}`, vars: level((r) => (r.name === i.name ? 100 / size : 0)), bnds: bnds(i.min === null ? null : i.min - eps, i.max === null ? null : i.max + eps) })),
        ...(c.constraints.ratios ?? []).flatMap((q, k) =>
          (["min", "max"] as const).flatMap((bound) => {
            const limit = q[bound];
            if (limit === null) return [];
            const vars = level((r) => (r.nutrients[q.numerator] ?? 0) - limit * (r.nutrients[q.denominator] ?? 0));
            return [{ name: `r${k}${bound}`, vars, bnds: bound === "min" ? bnds(-eps, null) : bnds(null, eps) }];
          }),
        ),
      ];
      const result = glpk.solve(
        {
          name: c.id,
          objective: { direction: glpk.GLP_MIN, name: "cost", vars: level((r) => r.price / 1000) },
          subjectTo,
          bounds: vars.map((name) => ({ name, type: glpk.GLP_LO, lb: 0, ub: 0 })),
          generals: vars,
        },
        { msglev: glpk.GLP_MSG_OFF, presol: true, mipgap: 0 },
      );
      if (s.status === "infeasible") {
        expect({ id: c.id, glpk: result.result.status }).toEqual({ id: c.id, glpk: glpk.GLP_NOFEAS });
        continue;
      }
      expect({ id: c.id, cost: s.cost }).toEqual({ id: c.id, cost: Math.round(result.result.z * 100) / 100 });
    }
  });
});
