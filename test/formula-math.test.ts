import { describe, expect, test } from "bun:test";
import {
  achievedNutrients,
  amountOf,
  checkConstraints,
  computeFormula,
  costOf,
  round,
  totalCostOf,
} from "../src/domain/formula-math.ts";

describe("round", () => {
  test("half-way decimals that binary floating point stores just below the half", () => {
    // Each of these is stored as ...4999..., so naive Math.round(x * 10^d) rounds them down.
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(2.675, 2)).toBe(2.68);
    expect(round(8.345, 2)).toBe(8.35);
    expect(round(123.4565, 3)).toBe(123.457);
    expect(round(0.00015, 4)).toBe(0.0002);
    expect(round(1234567.8905, 3)).toBe(1234567.891);
  });

  test("half away from zero, on both sides of zero", () => {
    expect(round(0.5, 0)).toBe(1);
    expect(round(2.5, 0)).toBe(3);
    expect(round(-2.5, 0)).toBe(-3);
    expect(round(-1.005, 2)).toBe(-1.01);
    expect(round(-0.125, 2)).toBe(-0.13);
  });

  test("just below a half still rounds down", () => {
    expect(round(1.0049, 2)).toBe(1);
    expect(round(0.00014999, 4)).toBe(0.0001);
  });

  test("accumulated floating error does not leak into the result", () => {
    expect(round(0.1 + 0.2, 4)).toBe(0.3);
    expect(round(0.1 * 3, 2)).toBe(0.3);
  });

  test("tiny, zero, negative-zero and exponent-notation inputs", () => {
    expect(round(1.23e-7, 4)).toBe(0);
    expect(Object.is(round(-1.23e-7, 4), 0)).toBe(true);
    expect(Object.is(round(-0, 2), 0)).toBe(true);
    expect(round(5e-5, 4)).toBe(0.0001);
    expect(round(1e21, 2)).toBe(1e21);
    expect(round(42, 3)).toBe(42);
  });

  test("non-finite values pass through, bad decimals are refused", () => {
    expect(round(Number.NaN, 2)).toBeNaN();
    expect(round(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
    expect(() => round(1, -1)).toThrow(RangeError);
    expect(() => round(1, 1.5)).toThrow(RangeError);
  });
});

describe("amountOf and costOf", () => {
  test("amount is percent of the batch, 3 decimals, half away from zero", () => {
    expect(amountOf(12.5, 2500)).toBe(312.5);
    expect(amountOf(33.33335, 1000)).toBe(333.334);
    expect(amountOf(0.00015, 1000)).toBe(0.002);
    expect(amountOf(0.0001, 1)).toBe(0);
    expect(amountOf(100, 1e7)).toBe(1e7);
  });

  test("cost is amount in tons times price per ton, 2 decimals", () => {
    expect(costOf(500, 250)).toBe(125);
    expect(costOf(333.34, 250)).toBe(83.34); // 83.335
    expect(costOf(333.334, 250)).toBe(83.33); // 83.3335
    expect(costOf(1.5, 3.35)).toBe(0.01); // 0.005025
    expect(costOf(1.5, 3.3)).toBe(0); // 0.00495
  });
});

describe("totalCostOf", () => {
  test("sums unrounded costs, so it can be below the sum of rounded costs", () => {
    const rows = Array.from({ length: 4 }, () => ({ percent: 0.5, batchSize: 1000, price: 1 }));
    // each row: 5 kg at 1/t = 0.005, which costOf rounds to 0.01
    expect(rows.map((r) => costOf(amountOf(r.percent, r.batchSize), r.price))).toEqual([
      0.01, 0.01, 0.01, 0.01,
    ]);
    expect(totalCostOf(rows)).toBe(0.02);
  });

  test("and above it", () => {
    const rows = Array.from({ length: 3 }, () => ({ percent: 0.4, batchSize: 1000, price: 1 }));
    // each row 0.004 -> 0.00 rounded; total 0.012 -> 0.01
    expect(totalCostOf(rows)).toBe(0.01);
  });

  test("uses the unrounded amount, not the rounded one", () => {
    // 0.0015 kg is shown as 0.002 kg; 0.002 kg × 2500/t would be 0.005 -> 0.01, the truth is 0.00375.
    expect(totalCostOf([{ percent: 0.00015, batchSize: 1000, price: 2500 }])).toBe(0);
  });

  test("empty composition costs nothing", () => {
    expect(totalCostOf([])).toBe(0);
  });
});

describe("achievedNutrients", () => {
  test("union of keys in first-seen order, missing values count 0", () => {
    const result = achievedNutrients([
      { percent: 60, nutrients: { CP: 8.5, Ca: 0.02 } },
      { percent: 40, nutrients: { Lys: 2.96, CP: 48.5 } },
    ]);
    expect(result).toEqual({ CP: 24.5, Ca: 0.012, Lys: 1.184 });
    expect(Object.keys(result)).toEqual(["CP", "Ca", "Lys"]);
  });

  test("key order follows first sighting, not sorting", () => {
    const result = achievedNutrients([
      { percent: 50, nutrients: { ME_poultry: 3350, DM: 88 } },
      { percent: 50, nutrients: { Ca: 38, DM: 99, Cl: 0 } },
    ]);
    expect(Object.keys(result)).toEqual(["ME_poultry", "DM", "Ca", "Cl"]);
    expect(result).toEqual({ ME_poultry: 1675, DM: 93.5, Ca: 19, Cl: 0 });
  });

  test("rounds to 4 decimals, half away from zero", () => {
    // 0.5 × 0.0003 = 0.00015, stored just below the half
    expect(achievedNutrients([{ percent: 50, nutrients: { Trp: 0.0003 } }])).toEqual({
      Trp: 0.0002,
    });
    expect(achievedNutrients([{ percent: 33.3333, nutrients: { Na: 0.393 } }])).toEqual({
      Na: 0.131, // 0.13099987
    });
  });

  test("odd key names are kept as plain keys", () => {
    const result = achievedNutrients([{ percent: 100, nutrients: JSON.parse('{"__proto__": 1}') }]);
    expect(Object.keys(result)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  test("no ingredients, no nutrients", () => {
    expect(achievedNutrients([])).toEqual({});
  });
});

describe("computeFormula", () => {
  test("row costs come from the rounded amounts, the total from the unrounded costs", () => {
    const result = computeFormula({
      batchSize: 1000,
      ingredients: [
        { name: "Maize", percent: 33.3333, price: 215.565, nutrients: { CP: 8.5, Ca: 0.02 } },
        {
          name: "Soybean meal 48%",
          percent: 33.3333,
          price: 402.165,
          nutrients: { CP: 48.5, Lys: 2.96 },
        },
        { name: "Limestone", percent: 33.3334, price: 98.46, nutrients: { Ca: 38 } },
      ],
    });
    expect(result.ingredients).toEqual([
      { name: "Maize", percent: 33.3333, amount: 333.333, price: 215.565, cost: 71.85 },
      {
        name: "Soybean meal 48%",
        percent: 33.3333,
        amount: 333.333,
        price: 402.165,
        cost: 134.05,
      },
      { name: "Limestone", percent: 33.3334, amount: 333.334, price: 98.46, cost: 32.82 },
    ]);
    // 71.854928145 + 134.054865945 + 32.82006564 = 238.72985973; rounded rows sum to 238.72
    expect(result.totalCost).toBe(238.73);
    expect(result.nutrients).toEqual({ CP: 19.0, Ca: 12.6734, Lys: 0.9867 });
    expect(Object.keys(result.nutrients)).toEqual(["CP", "Ca", "Lys"]);
  });

  test("a row can show a cent that the total does not", () => {
    const result = computeFormula({
      batchSize: 1000,
      ingredients: [{ name: "Phytase", percent: 0.00015, price: 2500, nutrients: {} }],
    });
    expect(result.ingredients[0]).toEqual({
      name: "Phytase",
      percent: 0.00015,
      amount: 0.002,
      price: 2500,
      cost: 0.01,
    });
    expect(result.totalCost).toBe(0);
    expect(result.nutrients).toEqual({});
  });
});

describe("checkConstraints", () => {
  const ingredients = [
    { name: "Maize", percent: 60 },
    { name: "Salt", percent: 0.5 },
    { name: "Soybean meal 48%", percent: 39.5 },
  ];
  const nutrients = { CP: 22, Na: 0.1965, Ca: 0.9 };

  test("no violations when every value is within its bounds, bounds inclusive", () => {
    expect(
      checkConstraints({
        ingredients,
        nutrients,
        constraints: {
          nutrients: [
            { key: "CP", min: 22, max: 22 },
            { key: "Ca", min: 0.9, max: null },
            { key: "Na", min: null, max: null },
          ],
          ingredients: [
            { name: "Salt", min: 0.5, max: 0.5 },
            { name: "Maize", min: null, max: 70 },
          ],
        },
      }),
    ).toEqual([]);
  });

  test("reports nutrient and ingredient violations with bound, limit and value", () => {
    expect(
      checkConstraints({
        ingredients,
        nutrients,
        constraints: {
          nutrients: [
            { key: "CP", min: 22.5, max: 23 },
            { key: "Na", min: 0.16, max: 0.18 },
          ],
          ingredients: [
            { name: "Salt", min: null, max: 0.4 },
            { name: "Maize", min: 61, max: 55 },
          ],
        },
      }),
    ).toEqual([
      { kind: "nutrient", target: "CP", bound: "min", limit: 22.5, value: 22 },
      { kind: "nutrient", target: "Na", bound: "max", limit: 0.18, value: 0.1965 },
      { kind: "ingredient", target: "Salt", bound: "max", limit: 0.4, value: 0.5 },
      { kind: "ingredient", target: "Maize", bound: "min", limit: 61, value: 60 },
      { kind: "ingredient", target: "Maize", bound: "max", limit: 55, value: 60 },
    ]);
  });

  test("an absent nutrient or ingredient counts as 0", () => {
    expect(
      checkConstraints({
        ingredients,
        nutrients,
        constraints: {
          nutrients: [
            { key: "Trp", min: 0.2, max: null },
            { key: "constructor", min: 1, max: null },
            { key: "EE", min: null, max: 5 },
          ],
          ingredients: [
            { name: "Limestone", min: 1, max: null },
            { name: "Fish meal", min: null, max: 5 },
          ],
        },
      }),
    ).toEqual([
      { kind: "nutrient", target: "Trp", bound: "min", limit: 0.2, value: 0 },
      { kind: "nutrient", target: "constructor", bound: "min", limit: 1, value: 0 },
      { kind: "ingredient", target: "Limestone", bound: "min", limit: 1, value: 0 },
    ]);
  });

  test("ratios: bounds inclusive, judged as numerator − limit × denominator; a zero denominator has no ratio", () => {
    expect(
      checkConstraints({
        ingredients,
        nutrients: { ...nutrients, avP: 0.45, Lys: 0 },
        constraints: {
          nutrients: [],
          ingredients: [],
          ratios: [
            { numerator: "Ca", denominator: "avP", min: 2, max: 2 }, // 0.9 / 0.45 = 2: met on both sides
            { numerator: "Ca", denominator: "avP", min: 2.1, max: null },
            { numerator: "Na", denominator: "Ca", min: null, max: 0.2 }, // 0.2183 > 0.2
            { numerator: "Ca", denominator: "Lys", min: 1, max: 1e9 }, // 0.9 − 1e9 × 0 > 0 breaks the max
            { numerator: "Trp", denominator: "Lys", min: 0, max: 0 }, // 0 / 0: both rows are 0, met
          ],
        },
      }),
    ).toEqual([
      { kind: "ratio", target: "Ca/avP", bound: "min", limit: 2.1, value: 2 },
      { kind: "ratio", target: "Na/Ca", bound: "max", limit: 0.2, value: 0.2183 },
      { kind: "ratio", target: "Ca/Lys", bound: "max", limit: 1e9, value: null },
    ]);
  });
});
