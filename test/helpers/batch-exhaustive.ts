/**
 * An independent judge of batch sheets: exact decimal arithmetic written apart from src/ (amounts as
 * bigint thousandths of a gram, nutrient values and limits as bigint fractions from their decimal
 * text), a limit check on any amounts, and on small cases an exhaustive search over every whole
 * number of steps that sums to the batch, ranked as the contract ranks them: cost, then Σ |deviation|,
 * then the larger amount for the name that sorts first (by bytes).
 */
import type { FormulaConstraints } from "../../src/domain/formula-math.ts";
import { seeded } from "./random.ts";

/** A decimal as a fraction p / 10^q from its printed form (no floating point involved). */
export interface Frac {
  p: bigint;
  q: number;
}
export function frac(x: number | string): Frac {
  const text = typeof x === "number" ? x.toString() : x;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const digits = BigInt(m[2]! + (m[3] ?? "")) * (m[1] === "-" ? -1n : 1n);
  const q = (m[3]?.length ?? 0) - Number(m[4] ?? 0);
  return q >= 0 ? { p: digits, q } : { p: digits * 10n ** BigInt(-q), q: 0 };
}
const lift = (a: Frac, q: number) => a.p * 10n ** BigInt(q - a.q);
export const fadd = (a: Frac, b: Frac): Frac => {
  const q = Math.max(a.q, b.q);
  return { p: lift(a, q) + lift(b, q), q };
};
export const fmul = (a: Frac, b: Frac): Frac => ({ p: a.p * b.p, q: a.q + b.q });
export const fneg = (a: Frac): Frac => ({ p: -a.p, q: a.q });
export const fcmp = (a: Frac, b: Frac): number => {
  const q = Math.max(a.q, b.q);
  const d = lift(a, q) - lift(b, q);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
const fabs = (a: Frac): Frac => (a.p < 0n ? fneg(a) : a);
const ZERO: Frac = { p: 0n, q: 0 };

export interface SheetCase {
  size: number;
  resolution: number;
  micro: { resolution: number; below: number } | null;
  rows: { name: string; percent: number; price: number; nutrients: Record<string, number> }[];
  constraints: FormulaConstraints;
}

export interface Miss {
  kind: "nutrient" | "ingredient" | "ratio";
  target: string;
  bound: "min" | "max";
}

/**
 * Every limit the amounts (kg as decimal text or numbers, by name) miss, judged exactly: a nutrient's
 * Σ value × kg against limit × size, an inclusion's 100 × kg against limit × size, a ratio's
 * Σ (numerator − limit × denominator) × kg against 0.
 */
export function missedLimits(c: SheetCase, kg: ReadonlyMap<string, Frac>): Miss[] {
  const size = frac(c.size);
  const value = (name: string, key: string) => {
    const row = c.rows.find((r) => r.name === name)!;
    return Object.hasOwn(row.nutrients, key) ? frac(row.nutrients[key]!) : ZERO;
  };
  const sum = (f: (name: string) => Frac) => [...kg].reduce((s, [name, amount]) => fadd(s, fmul(f(name), amount)), ZERO);
  const misses: Miss[] = [];
  const judge = (kind: Miss["kind"], target: string, level: Frac, min: Frac | null, max: Frac | null) => {
    if (min && fcmp(level, min) < 0) misses.push({ kind, target, bound: "min" });
    if (max && fcmp(level, max) > 0) misses.push({ kind, target, bound: "max" });
  };
  const times = (x: number | null) => (x === null ? null : fmul(frac(x), size));
  for (const n of c.constraints.nutrients) judge("nutrient", n.key, sum((name) => value(name, n.key)), times(n.min), times(n.max));
  for (const i of c.constraints.ingredients) judge("ingredient", i.name, fmul(frac(100), kg.get(i.name) ?? ZERO), times(i.min), times(i.max));
  for (const r of c.constraints.ratios ?? []) {
    for (const [bound, limit] of [["min", r.min], ["max", r.max]] as const) {
      if (limit === null) continue;
      const level = sum((name) => fadd(value(name, r.numerator), fneg(fmul(frac(limit), value(name, r.denominator)))));
      if (bound === "min" ? fcmp(level, ZERO) < 0 : fcmp(level, ZERO) > 0) misses.push({ kind: "ratio", target: `${r.numerator}/${r.denominator}`, bound });
    }
  }
  return misses;
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The exact amount of each composition row: percent × size / 100. */
export function exactKg(c: SheetCase): Map<string, Frac> {
  return new Map(c.rows.map((r) => [r.name, fmul(fmul(frac(r.percent), frac(c.size)), { p: 1n, q: 2 })]));
}

/** The step of each row: micro when its exact amount is strictly below `below`. */
export function stepOf(c: SheetCase): Map<string, Frac> {
  const exact = exactKg(c);
  return new Map(c.rows.map((r) => [r.name, c.micro && fcmp(exact.get(r.name)!, frac(c.micro.below)) < 0 ? frac(c.micro.resolution) : frac(c.resolution)]));
}

/**
 * The best amounts by exhaustive search: `status` infeasible when no amounts meet every limit (then
 * the nearest amounts, limits ignored).
 */
export function exhaustiveSheet(c: SheetCase): { status: "optimal" | "infeasible"; kg: Map<string, Frac>; cost: Frac } {
  const names = c.rows.map((r) => r.name);
  const steps = stepOf(c);
  const exact = exactKg(c);
  const size = frac(c.size);
  const price = new Map(c.rows.map((r) => [r.name, frac(r.price)]));
  type Candidate = { kg: Map<string, Frac>; cost: Frac; deviation: Frac; feasible: boolean };
  let best: Candidate | null = null;
  let nearest: Candidate | null = null;
  const inNameOrder = [...names].sort(byBytes);
  const better = (a: Candidate, b: Candidate, withCost: boolean) => {
    if (withCost && fcmp(a.cost, b.cost) !== 0) return fcmp(a.cost, b.cost) < 0;
    if (fcmp(a.deviation, b.deviation) !== 0) return fcmp(a.deviation, b.deviation) < 0;
    for (const name of inNameOrder) {
      const d = fcmp(a.kg.get(name)!, b.kg.get(name)!);
      if (d !== 0) return d > 0;
    }
    return false;
  };
  const visit = (i: number, left: Frac, kg: Map<string, Frac>) => {
    const name = names[i]!;
    const step = steps.get(name)!;
    if (i === names.length - 1) {
      // The last line takes what is left, if that is a whole number of its steps.
      const q = Math.max(left.q, step.q);
      if (lift(left, q) < 0n || lift(left, q) % lift(step, q) !== 0n) return;
      kg.set(name, left);
      const amounts = new Map(kg);
      const cost = names.reduce((s, n) => fadd(s, fmul(price.get(n)!, amounts.get(n)!)), ZERO);
      const deviation = names.reduce((s, n) => fadd(s, fabs(fadd(amounts.get(n)!, fneg(exact.get(n)!)))), ZERO);
      const candidate = { kg: amounts, cost, deviation, feasible: missedLimits(c, amounts).length === 0 };
      if (candidate.feasible && (best === null || better(candidate, best, true))) best = candidate;
      if (nearest === null || better(candidate, nearest, false)) nearest = candidate;
      return;
    }
    for (let amount = ZERO; fcmp(amount, left) <= 0; amount = fadd(amount, step)) {
      kg.set(name, amount);
      visit(i + 1, fadd(left, fneg(amount)), kg);
    }
  };
  visit(0, size, new Map());
  const chosen: Candidate = best ?? nearest!;
  return { status: best ? "optimal" : "infeasible", kg: chosen.kg, cost: chosen.cost };
}

/**
 * A small random case: 2 to 4 rows, a batch of 6 to 12 kg in steps of 0.5 or 1 kg (micro: 0.05 kg
 * below 0.6 kg), limits around the saved mix, so most are feasible on whole steps and some are not.
 */
export function smallSheetCase(seed: number): SheetCase {
  const rnd = seeded(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const n = int(2, 4);
  const weights = Array.from({ length: n }, () => 0.02 + rnd());
  const total = weights.reduce((a, b) => a + b, 0);
  const percents = weights.map((w) => Math.round((w / total) * 1e6) / 1e4);
  percents[n - 1] = Math.round((100 - percents.slice(0, -1).reduce((a, b) => a + b, 0)) * 1e4) / 1e4;
  const keys = ["CP", "Ca", "P"];
  const rows = percents.map((percent, j) => ({
    name: ["Maize", "Soy", "Limestone", "Salt", "Barley"][j]!,
    percent,
    price: rnd() < 0.3 ? 200 : Math.round(rnd() * 50_000 + 5_000) / 100,
    nutrients: Object.fromEntries(keys.flatMap((k) => (rnd() < 0.25 ? [] : [[k, Math.round(rnd() * 400) / 10]]))),
  }));
  const level = (key: string) => rows.reduce((s, r) => s + ((r.nutrients[key] ?? 0) * r.percent) / 100, 0);
  const near = (v: number, below: boolean) => Math.round((below ? v * (1 - rnd() * 0.05) : v * (1 + rnd() * 0.05)) * 100) / 100;
  const nutrients = keys.flatMap((key) => {
    const v = level(key);
    const min = rnd() < 0.6 ? near(v, true) : null;
    const max = rnd() < 0.4 ? near(v, false) : null;
    return min === null && max === null ? [] : [{ key, min, max }];
  });
  const ingredients = rows.flatMap((r) => (rnd() < 0.3 ? [{ name: r.name, min: rnd() < 0.5 ? Math.floor(r.percent) : null, max: Math.ceil(r.percent + rnd() * 5) }] : []));
  const ratios = rnd() < 0.3 && level("P") > 0 ? [{ numerator: "Ca", denominator: "P", min: Math.round((level("Ca") / level("P")) * 0.9 * 100) / 100, max: null }] : [];
  const resolution = rnd() < 0.5 ? 0.5 : 1;
  const size = int(6, 12);
  const micro = rnd() < 0.3 ? { resolution: 0.05, below: 0.6 } : null;
  return { size, resolution, micro, rows, constraints: { nutrients, ingredients, ratios } };
}
