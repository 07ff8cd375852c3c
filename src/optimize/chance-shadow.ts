/**
 * Shadow prices of a confidence optimum (docs/decisions.md#optimizing-to-a-confidence-level), read off
 * the final linear approximation: moving a nutrient limit moves its row and every cut of it together, so
 * its shadow price is the sum of their duals. They are local (the cuts are tangents at this optimum),
 * so no range comes with them: validFrom and validTo stay null, and the answer leaves them out.
 */
import { BASIS, type LpSolution } from "./lp.ts";
import { nutrientLevel, type LeastCostProblem } from "./model.ts";
import type { Sensitivity, ShadowPrice } from "./sensitivity.ts";

/**
 * One shadow price per binding limit (and side) of the approximation; price ranges and entering prices are
 * not computed (null).
 * @example chanceSensitivity(solved.problem, solved.solution).shadowPrices[0] // { limit: { kind: "nutrient", key: "CP", ... }, bound: "min", shadowPrice: 3.21, ... }
 */
export function chanceSensitivity(problem: LeastCostProblem, solution: LpSolution): Sensitivity {
  const { candidates, rows } = problem;
  const byLimit = new Map<string, ShadowPrice>();
  for (let r = 1; r < rows.length; r++) {
    const status = solution.rowStatus[r];
    if (status !== BASIS.lower && status !== BASIS.upper) continue;
    const row = rows[r]!;
    const limit = row.limit!;
    const dual = solution.rowDual[r]!;
    const bound = row.lower === row.upper ? (dual >= 0 ? "min" : "max") : status === BASIS.lower ? "min" : "max";
    const value = limit.kind === "ratio" ? limit.limit : bound === "min" ? row.lower : row.upper;
    // A ratio's row moves by the achieved denominator per unit of the ratio (as sensitivity.ts).
    const price = limit.kind === "ratio" ? dual * nutrientLevel(candidates, limit.denominator, solution.x) : dual;
    const id = JSON.stringify([limit.kind, "key" in limit ? limit.key : "name" in limit ? limit.name : limit.kind === "ratio" ? [limit.numerator, limit.denominator, limit.limit] : "", bound]);
    const known = byLimit.get(id);
    if (known) known.shadowPrice += price;
    else byLimit.set(id, { row: r, limit, bound, value, shadowPrice: price, validFrom: null, validTo: null });
  }
  const none = candidates.map(() => null);
  return { shadowPrices: [...byLimit.values()], priceLow: none, priceHigh: [...none], entersBelow: [...none], degenerate: false };
}
