/**
 * Least-cost problems for the optimizer's proofs: seeded random formulas that are feasible by
 * construction (their limits are set around a known mix, the "saved composition"), and a second,
 * independent LP solver (GLPK) to compare optima with.
 */
import GLPK, { type GLPK as Glpk } from "glpk.js/node";
import { achievedNutrients, checkConstraints, type FormulaConstraints } from "../../src/domain/formula-math.ts";
import type { Candidate } from "../../src/optimize/model.ts";
import type { LeastCostProblem } from "../../src/optimize/model.ts";
import { seeded } from "./random.ts";

export interface RandomFormula {
  seed: number;
  candidates: Candidate[];
  constraints: FormulaConstraints;
  /** A mix that meets every limit (percents summing to 100). */
  saved: number[];
}

/**
 * A feasible random formula. Nutrient values are drawn from a few levels so ties (and degenerate
 * optima) occur; some limits sit exactly at the saved mix's level; some candidates are out of stock.
 * @example const f = randomFormula(7); f.candidates.length // 3..14
 */
export function randomFormula(seed: number, size: { candidates?: number; nutrients?: number; roundLimits?: boolean } = {}): RandomFormula {
  const rnd = seeded(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const n = size.candidates ?? int(3, 14);
  const keys = Array.from({ length: size.nutrients ?? int(2, 6) }, (_, k) => `N${k}`);
  const levels = [0, 0, 0.5, 1, 2, 5, 10, 40];
  const candidates: Candidate[] = Array.from({ length: n }, (_, j) => ({
    name: `I${j}`,
    price: rnd() < 0.15 ? int(50, 400) : Math.round(rnd() * 200_000) / 100 + 20,
    held: j > 0 && rnd() < 0.1,
    nutrients: Object.fromEntries(keys.flatMap((k) => (rnd() < 0.2 ? [] : [[k, rnd() < 0.5 ? levels[int(0, levels.length - 1)]! : Math.round(rnd() * 5000) / 100]]))),
  }));
  // The saved mix: random shares of the candidates that are in stock.
  const weights: number[] = candidates.map((c) => (c.held || rnd() < 0.3 ? 0 : rnd()));
  if (!weights.some((w) => w > 0)) weights[0] = 1;
  const total = weights.reduce((a, b) => a + b, 0);
  const saved = weights.map((w) => (w / total) * 100);
  const level = (key: string) => candidates.reduce((sum, c, j) => sum + ((c.nutrients[key] ?? 0) * saved[j]!) / 100, 0);
  const around = (v: number, below: boolean) => {
    const roll = rnd();
    // Exactly at the saved level: binding, often degenerate.
    const at = roll < 0.25 ? v : below ? v * (1 - rnd() * 0.15) - rnd() * 0.01 : v * (1 + rnd() * 0.15) + rnd() * 0.01;
    // As people write limits: 2 decimals, outward so the saved mix still meets them.
    if (!size.roundLimits) return at;
    return below ? Math.floor(at * 100) / 100 : Math.ceil(at * 100) / 100;
  };
  const nutrients = keys.flatMap((key) => {
    const v = level(key);
    const min = rnd() < 0.7 ? around(v, true) : null;
    const max = rnd() < 0.5 ? around(v, false) : null;
    return min === null && max === null ? [] : [{ key, min, max }];
  });
  const ingredients = candidates.flatMap((c, j) => {
    if (rnd() > 0.3) return [];
    const min = rnd() < 0.5 && saved[j]! > 0 ? around(saved[j]!, true) : null;
    const max = rnd() < 0.7 ? Math.min(100, around(saved[j]!, false)) : null;
    return min === null && max === null ? [] : [{ name: c.name, min: min === null ? null : Math.max(0, min), max }];
  });
  const ratios = keys.flatMap((numerator, k) => {
    const denominator = keys[(k + 1) % keys.length]!;
    const den = level(denominator);
    if (rnd() > 0.35 || den <= 0 || numerator === denominator) return [];
    const ratio = level(numerator) / den;
    const min = rnd() < 0.6 ? around(ratio, true) : null;
    const max = min === null || rnd() < 0.4 ? around(ratio, false) : null;
    return [{ numerator, denominator, min, max }];
  });
  return { seed, candidates, constraints: { nutrients, ingredients, ratios }, saved };
}

let glpk: Glpk | null = null;

/** The GLPK module, loaded once. */
export async function glpkModule(): Promise<Glpk> {
  glpk ??= await GLPK();
  return glpk;
}

/**
 * The optimum per ton by GLPK (simplex, no presolve), or null when it finds no feasible mix.
 * @example await glpkOptimum(problem) // 312.4 (cost per ton)
 */
export async function glpkOptimum(problem: LeastCostProblem): Promise<number | null> {
  return (await glpkSolve(problem))?.objective ?? null;
}

/**
 * GLPK's optimum of the problem with another objective if given (one coefficient per candidate;
 * default the cost per ton), with the row duals (d objective / d active bound), or null when infeasible.
 * @example (await glpkSolve(problem, footprint))!.objective // the least footprint
 */
export async function glpkSolve(problem: LeastCostProblem, objective?: ArrayLike<number>): Promise<{ objective: number; dual: number[] } | null> {
  const g = await glpkModule();
  const vars = problem.candidates.map((_, j) => `x${j}`);
  const bnds = (lower: number, upper: number) => {
    if (lower === upper) return { type: g.GLP_FX, lb: lower, ub: upper };
    if (Number.isFinite(lower) && Number.isFinite(upper)) return { type: g.GLP_DB, lb: lower, ub: upper };
    if (Number.isFinite(lower)) return { type: g.GLP_LO, lb: lower, ub: 0 };
    if (Number.isFinite(upper)) return { type: g.GLP_UP, lb: 0, ub: upper };
    return { type: g.GLP_FR, lb: 0, ub: 0 };
  };
  const result = g.solve(
    {
      name: "least-cost",
      objective: { direction: g.GLP_MIN, name: "cost", vars: problem.candidates.map((c, j) => ({ name: vars[j]!, coef: objective ? objective[j]! : c.price / 100 })) },
      subjectTo: problem.rows.map((row, r) => ({
        name: `r${r}`,
        vars: [...row.coefficients].flatMap((coef, j) => (coef === 0 ? [] : [{ name: vars[j]!, coef }])),
        bnds: bnds(row.lower, row.upper),
      })),
      bounds: problem.candidates.map((c, j) => (c.held ? { name: vars[j]!, type: g.GLP_FX, lb: 0, ub: 0 } : { name: vars[j]!, type: g.GLP_LO, lb: 0, ub: 0 })),
    },
    { msglev: g.GLP_MSG_OFF, presol: false },
  );
  if (result.result.status === g.GLP_OPT) return { objective: result.result.z, dual: problem.rows.map((_, r) => result.result.dual?.[`r${r}`] ?? 0) };
  if (result.result.status === g.GLP_NOFEAS) return null;
  throw new Error(`GLPK ended with status ${result.result.status}`);
}

/** A number as the exact fraction of the decimal it was written as (its shortest printed form). */
export function fraction(x: number): { n: bigint; d: bigint } {
  const [mantissa, exponent = "0"] = String(x).split("e");
  const [whole, part = ""] = mantissa!.split(".");
  const shift = part.length - Number(exponent);
  const n = BigInt(whole! + part);
  return shift >= 0 ? { n, d: 10n ** BigInt(shift) } : { n: n * 10n ** BigInt(-shift), d: 1n };
}

/**
 * The limit rows a mix of percents (each a multiple of 0.0001) breaks, judged in exact rational
 * arithmetic on the decimals the data and limits were written as; written apart from the optimizer's
 * own check (src/optimize/exact.ts), so it can prove it.
 * @example exactBreaks(problem, [61.2345, 38.7655]) // [] when every limit holds
 */
export function exactBreaks(problem: LeastCostProblem, percents: readonly number[]): string[] {
  const p = percents.map(fraction);
  const level = (values: readonly number[]) =>
    values.reduce((acc, v, j) => {
      const f = fraction(v);
      return { n: acc.n * f.d * p[j]!.d + f.n * p[j]!.n * acc.d, d: acc.d * f.d * p[j]!.d };
    }, { n: 0n, d: 1n });
  const below = (a: { n: bigint; d: bigint }, b: { n: bigint; d: bigint }) => a.n * b.d < b.n * a.d;
  const broken: string[] = [];
  const sum = level(percents.map(() => 1));
  if (sum.n !== 100n * sum.d) broken.push(`sum ${Number(sum.n) / Number(sum.d)}`);
  problem.rows.forEach((row, r) => {
    const limit = row.limit;
    if (limit === null) return;
    if (limit.kind === "co2e") {
      // Σ co2e × percent × 10 ≤ max: the level Σ co2e × percent against max / 10 (an unknown footprint is held at 0).
      const got = level(problem.candidates.map((c) => c.co2e ?? 0));
      const m = fraction(limit.max);
      if (below({ n: m.n, d: m.d * 10n }, got)) broken.push(`row ${r} co2e max`);
      return;
    }
    if (limit.kind === "ratio") {
      // Σ (num − L·den) × p ≥ 0 for a min, ≤ 0 for a max: levels of num and den, then the comparison.
      const num = level(problem.candidates.map((c) => c.nutrients[limit.numerator] ?? 0));
      const den = level(problem.candidates.map((c) => c.nutrients[limit.denominator] ?? 0));
      const l = fraction(limit.limit);
      const lhs = { n: num.n * den.d * l.d, d: 1n };
      const rhs = { n: l.n * den.n * num.d, d: 1n };
      if (Number.isFinite(row.lower) && below(lhs, rhs)) broken.push(`row ${r} ratio min`);
      if (Number.isFinite(row.upper) && below(rhs, lhs)) broken.push(`row ${r} ratio max`);
      return;
    }
    // A nutrient's level is Σ value × percent / 100: the limit is scaled by 100 instead.
    const got = level(problem.candidates.map((c) => (limit.kind === "nutrient" ? (c.nutrients[limit.key] ?? 0) : c.name === limit.name ? 1 : 0)));
    const scale = limit.kind === "nutrient" ? 100n : 1n;
    if (limit.min !== null) {
      const m = fraction(limit.min);
      if (below(got, { n: m.n * scale, d: m.d })) broken.push(`row ${r} min`);
    }
    if (limit.max !== null) {
      const m = fraction(limit.max);
      if (below({ n: m.n * scale, d: m.d }, got)) broken.push(`row ${r} max`);
    }
  });
  return broken;
}

/**
 * Whether a mix of grid units (0.0001 %) keeps every limit exactly (exactBreaks) and raises no saved-formula
 * warning: a ratio is also read, as a warning reads it, on the levels rounded to 4 decimals.
 * @example keepsAsShown(problem, Int32Array.from([612345, 387655])) // true
 */
export function keepsAsShown(problem: LeastCostProblem, units: Int32Array): boolean {
  if (exactBreaks(problem, Array.from(units, (u) => u / 10_000)).length > 0) return false;
  const ratios = problem.rows.flatMap((row) => {
    const limit = row.limit;
    if (limit?.kind !== "ratio") return [];
    return [{ numerator: limit.numerator, denominator: limit.denominator, min: Number.isFinite(row.lower) ? limit.limit : null, max: Number.isFinite(row.upper) ? limit.limit : null }];
  });
  const nutrients = achievedNutrients(problem.candidates.flatMap((c, j) => (units[j] === 0 ? [] : [{ percent: units[j]! / 10_000, nutrients: c.nutrients }])));
  return checkConstraints({ ingredients: [], nutrients, constraints: { nutrients: [], ingredients: [], ratios } }).length === 0;
}
