/**
 * Computed values of a formula (docs/decisions.md#formulas-and-files, "Computed values").
 *
 * Pure functions: import, the demo and the tests must all agree to the cent, so every place that
 * derives amounts, costs or achieved nutrients goes through here.
 */

/**
 * Rounds half away from zero, treating the input as the decimal number it was meant to be.
 *
 * `Math.round(x * 100) / 100` gets 1.005 wrong because 1.005 is stored as 1.00499999999999989…;
 * trimming to 15 significant digits first removes that binary noise (a double carries 15–17), and
 * shifting the decimal point through the exponent of a string keeps the shift itself exact.
 *
 * @example
 * round(1.005, 2);  // 1.01
 * round(2.675, 2);  // 2.68
 * round(-1.005, 2); // -1.01
 * round(0.1 + 0.2, 4); // 0.3
 */
export function round(x: number, decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  if (!Number.isFinite(x) || x === 0) return x === 0 ? 0 : x;
  const sign = x < 0 ? -1 : 1;
  const cleaned = Number(Math.abs(x).toPrecision(15));
  const shifted = shiftDecimal(cleaned, decimals);
  // shifted is positive, so Math.round's "half up" is "half away from zero".
  const result = sign * shiftDecimal(Math.round(shifted), -decimals);
  return result === 0 ? 0 : result; // no -0 in JSON-bound values
}

/** x × 10^by, done by rewriting the exponent so no binary multiplication error creeps in. */
function shiftDecimal(x: number, by: number): number {
  const [mantissa, exponent] = x.toExponential().split("e");
  return Number(`${mantissa}e${Number(exponent) + by}`);
}

/**
 * Amount of an ingredient in the batch (batch units, kg): percent/100 × batchSize, 3 decimals.
 *
 * @example
 * amountOf(12.3456, 1000); // 123.456
 * amountOf(0.0005, 1000);  // 0.005
 */
export function amountOf(percent: number, batchSize: number): number {
  return round((percent / 100) * batchSize, 3);
}

/**
 * Cost of an amount (kg) at a price per metric ton: amount/1000 × price, 2 decimals.
 *
 * @example
 * costOf(500, 250);   // 125
 * costOf(1.5, 3.35);  // 0.01 (0.005025 rounds up)
 */
export function costOf(amount: number, pricePerTon: number): number {
  return round((amount / 1000) * pricePerTon, 2);
}

/**
 * The unrounded cost of one composition row; totals are summed from these, not from `costOf`.
 * @example rawCost(0.5, 1000, 1) // 0.005
 */
export function rawCost(percent: number, batchSize: number, pricePerTon: number): number {
  return (((percent / 100) * batchSize) / 1000) * pricePerTon;
}

/**
 * Total cost of a batch: the unrounded row costs summed, then rounded to 2 decimals. It can
 * differ by a cent or more from the sum of the rounded row costs; the total is the truer figure.
 *
 * @example
 * // each row costs 0.005 unrounded (0.01 rounded): the total is 0.02, not 0.04
 * totalCostOf([
 *   { percent: 0.5, batchSize: 1000, price: 1 },
 *   { percent: 0.5, batchSize: 1000, price: 1 },
 *   { percent: 0.5, batchSize: 1000, price: 1 },
 *   { percent: 0.5, batchSize: 1000, price: 1 },
 * ]); // 0.02
 */
export function totalCostOf(
  rows: ReadonlyArray<{ percent: number; batchSize: number; price: number }>,
): number {
  let sum = 0;
  for (const row of rows) sum += rawCost(row.percent, row.batchSize, row.price);
  return round(sum, 2);
}

/**
 * Achieved nutrient values of a mix: for every key any ingredient has (in first-seen order),
 * Σ percent/100 × value, a missing value counting 0, rounded to 4 decimals.
 *
 * @example
 * achievedNutrients([
 *   { percent: 60, nutrients: { CP: 8.5, Ca: 0.02 } },
 *   { percent: 40, nutrients: { CP: 48.5, Lys: 2.96 } },
 * ]); // { CP: 24.5, Ca: 0.012, Lys: 1.184 }
 */
export function achievedNutrients(
  rows: ReadonlyArray<{ percent: number; nutrients: Readonly<Record<string, number>> }>,
): Record<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.nutrients)) {
      sums.set(key, (sums.get(key) ?? 0) + (row.percent / 100) * value);
    }
  }
  // fromEntries, not assignment: a CSV may name a nutrient "__proto__" and it must stay a key.
  return Object.fromEntries([...sums].map(([key, sum]) => [key, round(sum, 4)]));
}

export interface CompositionRow {
  name: string;
  percent: number;
  /** Price per metric ton. */
  price: number;
  nutrients: Readonly<Record<string, number>>;
}

export interface ComputedIngredient {
  name: string;
  percent: number;
  amount: number;
  price: number;
  cost: number;
}

export interface ComputedFormula {
  ingredients: ComputedIngredient[];
  nutrients: Record<string, number>;
  totalCost: number;
}

/**
 * Every computed field of a formula detail from its batch size and composition.
 *
 * @example
 * computeFormula({
 *   batchSize: 1000,
 *   ingredients: [
 *     { name: "Maize", percent: 60, price: 220, nutrients: { CP: 8.5 } },
 *     { name: "Soybean meal 48%", percent: 40, price: 450, nutrients: { CP: 48.5 } },
 *   ],
 * });
 * // { ingredients: [{ name: "Maize", percent: 60, amount: 600, price: 220, cost: 132 },
 * //                 { name: "Soybean meal 48%", percent: 40, amount: 400, price: 450, cost: 180 }],
 * //   nutrients: { CP: 24.5 }, totalCost: 312 }
 */
export function computeFormula(input: {
  batchSize: number;
  ingredients: ReadonlyArray<CompositionRow>;
}): ComputedFormula {
  const { batchSize } = input;
  const ingredients = input.ingredients.map((row) => {
    const amount = amountOf(row.percent, batchSize);
    return {
      name: row.name,
      percent: row.percent,
      amount,
      price: row.price,
      // docs/decisions.md#formulas-and-files: cost is derived from the (rounded) amount shown on the same row.
      cost: costOf(amount, row.price),
    };
  });
  return {
    ingredients,
    nutrients: achievedNutrients(input.ingredients),
    totalCost: totalCostOf(input.ingredients.map((r) => ({ ...r, batchSize }))),
  };
}

export interface Bound {
  min: number | null;
  max: number | null;
}

export interface RatioBound extends Bound {
  numerator: string;
  denominator: string;
}

export interface FormulaConstraints {
  nutrients: ReadonlyArray<{ key: string } & Bound>;
  ingredients: ReadonlyArray<{ name: string } & Bound>;
  /** Absent in formulas written before ratio constraints existed. */
  ratios?: ReadonlyArray<RatioBound>;
}

export interface ConstraintViolation {
  kind: "nutrient" | "ingredient" | "ratio";
  /** Nutrient key, ingredient name, or `numerator/denominator` for a ratio. */
  target: string;
  bound: "min" | "max";
  limit: number;
  /** The achieved value; for a ratio whose denominator is 0, null (no ratio exists). */
  value: number | null;
}

/**
 * Whether numerator / denominator meets a bound, judged as the linear rows the optimizer uses
 * (numerator − limit × denominator ≥ 0 for a min, ≤ 0 for a max), so a zero denominator has an answer.
 * @example meetsRatio(1.0, 0.45, "min", 2) // true (1.0 − 2 × 0.45 = 0.1 ≥ 0)
 */
export function meetsRatio(numerator: number, denominator: number, bound: "min" | "max", limit: number): boolean {
  const row = numerator - limit * denominator;
  return bound === "min" ? row >= 0 : row <= 0;
}

/**
 * The constraints a formula detail breaks: nutrient bounds against the achieved (rounded)
 * nutrients, ingredient inclusion bounds against the percents, ratio bounds against the ratio of two
 * achieved nutrients. A null bound is no bound; a nutrient no ingredient carries, or an ingredient
 * not in the formula, counts as 0.
 *
 * @example
 * checkConstraints({
 *   ingredients: [{ name: "Salt", percent: 0.5 }],
 *   nutrients: { Na: 0.1965 },
 *   constraints: {
 *     nutrients: [{ key: "Na", min: 0.16, max: 0.18 }],
 *     ingredients: [{ name: "Salt", min: null, max: 0.4 }],
 *   },
 * });
 * // [{ kind: "nutrient", target: "Na", bound: "max", limit: 0.18, value: 0.1965 },
 * //  { kind: "ingredient", target: "Salt", bound: "max", limit: 0.4, value: 0.5 }]
 */
export function checkConstraints(formula: {
  ingredients: ReadonlyArray<{ name: string; percent: number }>;
  nutrients: Readonly<Record<string, number>>;
  constraints: FormulaConstraints;
}): ConstraintViolation[] {
  const violations: ConstraintViolation[] = [];
  const check = (kind: ConstraintViolation["kind"], target: string, value: number, b: Bound) => {
    if (b.min !== null && value < b.min) {
      violations.push({ kind, target, bound: "min", limit: b.min, value });
    }
    if (b.max !== null && value > b.max) {
      violations.push({ kind, target, bound: "max", limit: b.max, value });
    }
  };

  for (const c of formula.constraints.nutrients) {
    // hasOwn: a key such as "constructor" must not pick up Object.prototype members.
    const value = Object.hasOwn(formula.nutrients, c.key) ? formula.nutrients[c.key] : undefined;
    check("nutrient", c.key, value ?? 0, c);
  }

  // A name listed twice in a composition is one inclusion as far as its limit goes.
  const percents = new Map<string, number>();
  for (const row of formula.ingredients) {
    percents.set(row.name, (percents.get(row.name) ?? 0) + row.percent);
  }
  for (const c of formula.constraints.ingredients) {
    check("ingredient", c.name, percents.get(c.name) ?? 0, c);
  }

  const achieved = (key: string) => (Object.hasOwn(formula.nutrients, key) ? formula.nutrients[key]! : 0);
  for (const r of formula.constraints.ratios ?? []) {
    const num = achieved(r.numerator);
    const den = achieved(r.denominator);
    const value = den === 0 ? null : round(num / den, 4);
    for (const bound of ["min", "max"] as const) {
      const limit = r[bound];
      if (limit !== null && !meetsRatio(num, den, bound, limit)) violations.push({ kind: "ratio", target: `${r.numerator}/${r.denominator}`, bound, limit, value });
    }
  }
  return violations;
}
