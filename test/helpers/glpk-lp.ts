/**
 * GLPK (glpk.js, an independent solver) on a dense LP in the shape src/optimize/lp.ts takes: the
 * optimum and the solution, for proofs that need more than the objective (a sweep's percent, a plan's mixes).
 */
import GLPK, { type GLPK as Glpk } from "glpk.js/node";
import type { DenseLp } from "../../src/optimize/lp.ts";

let glpk: Glpk | null = null;

/**
 * @example const { z, x } = (await glpkSolve(lpOf(problem)))!
 */
export async function glpkSolve(lp: DenseLp): Promise<{ z: number; x: number[] } | null> {
  glpk ??= await GLPK();
  const g = glpk;
  const n = lp.cost.length;
  const name = (j: number) => `x${j}`;
  const bnds = (lower: number, upper: number) => {
    if (lower === upper) return { type: g.GLP_FX, lb: lower, ub: upper };
    if (Number.isFinite(lower) && Number.isFinite(upper)) return { type: g.GLP_DB, lb: lower, ub: upper };
    if (Number.isFinite(lower)) return { type: g.GLP_LO, lb: lower, ub: 0 };
    if (Number.isFinite(upper)) return { type: g.GLP_UP, lb: 0, ub: upper };
    return { type: g.GLP_FR, lb: 0, ub: 0 };
  };
  const result = g.solve(
    {
      name: "lp",
      objective: { direction: g.GLP_MIN, name: "cost", vars: Array.from({ length: n }, (_, j) => ({ name: name(j), coef: lp.cost[j]! })) },
      subjectTo: lp.rows.map((row, r) => ({
        name: `r${r}`,
        vars: Array.from({ length: n }, (_, j) => ({ name: name(j), coef: row.coefficients[j]! })).filter((v) => v.coef !== 0),
        bnds: bnds(row.lower, row.upper),
      })),
      bounds: Array.from({ length: n }, (_, j) => ({ name: name(j), ...bnds(lp.colLower[j]!, lp.colUpper[j]!) })),
    },
    { msglev: g.GLP_MSG_OFF, presol: false },
  );
  if (result.result.status === g.GLP_NOFEAS) return null;
  if (result.result.status !== g.GLP_OPT) throw new Error(`GLPK ended with status ${result.result.status}`);
  return { z: result.result.z, x: Array.from({ length: n }, (_, j) => result.result.vars[name(j)] ?? 0) };
}
