import type { Command } from "commander";
import { frontierInput, type FrontierShown } from "../src/optimize/frontier-task.ts";
import type { CandidateSet } from "../src/optimize/candidates.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { FRONTIER_POINTS } from "../src/schemas/frontier.ts";
import { dataOption, intInRange, jsonOption, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import { collectPrice, conflictRows } from "./formula-optimize.ts";
import { candidatesOption, formulaToSolve } from "./what-if.ts";
import { frontierChart } from "./frontier-chart.ts";
import type { Io } from "./io.ts";

interface Options {
  points: number;
  candidates: CandidateSet;
  include?: string;
  price: Map<string, number>;
  includeOutOfStock?: boolean;
  json?: boolean;
  workspace: string;
  data: string;
}

/** `feedbase formula frontier`: the data of GET /v1/formulas/:id/frontier as a table and a text chart. */
export function registerFormulaFrontier(group: Command, io: Io): void {
  withExamples(
    group
      .command("frontier <id>")
      .description("the cost–CO2e frontier: the cheapest mix at each footprint from the least-cost to the least-CO2e mix, and the cost of each tonne of CO2e avoided")
      .option(`--points <n>`, `how many points (${FRONTIER_POINTS.min} to ${FRONTIER_POINTS.max}, default ${FRONTIER_POINTS.default})`, intInRange("--points", FRONTIER_POINTS.min, FRONTIER_POINTS.max), FRONTIER_POINTS.default)
      .option("--include <names>", "extra candidate ingredients, comma-separated")
      .option("--price <NAME=VALUE>", "a what-if price per ton (repeatable; never stored)", collectPrice, new Map<string, number>())
      .option("--include-out-of-stock", "let out-of-stock candidates into the mixes (by default they are held at 0)")
      .addOption(candidatesOption())
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(dataOption())
      .action((id: string, opts: Options) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          const { formula, lookup, options } = await formulaToSolve(store, ws, id, opts);
          const shown = await solveInProcess("frontier", frontierInput(formula, lookup, options, opts.points));
          if (opts.json) printDocument(io, shown);
          else printFrontier(io, shown);
        }),
      ),
    [
      "feedbase formula frontier broiler-starter",
      "feedbase formula frontier broiler-starter --points 21 --include 'Soybean meal 48% US'",
      "feedbase formula frontier layer-phase-1 --candidates all --json",
    ],
  );
}

function printFrontier(io: Io, f: FrontierShown): void {
  const out = (text: string) => io.out(text);
  if (f.heldOut.length > 0) out(`Held at 0 (co2e unknown): ${f.heldOut.join(", ")}\n`);
  if (f.status === "infeasible") {
    const alone = f.conflicts.some((c) => c.alone);
    out(`${f.id}: ${f.name}: no mix of the candidates of known footprint meets every limit.\n`);
    out(alone ? "Each of these limits, moved alone to the value shown (every other limit kept), makes it feasible:\n" : "No single limit suffices: relax these together (the value the closest mix reaches):\n");
    printRows(io, f.conflicts, conflictRows(alone), false);
    return;
  }
  const [first, last] = [f.points[0]!, f.points.at(-1)!];
  if (f.points.length === 1) {
    out(`${f.id}: ${f.name}: the least-cost mix is also the least-CO2e mix: ${first.co2ePerTon.toFixed(1)} kg CO2e per tonne of feed at ${first.costPerTon.toFixed(2)} per tonne.\n`);
  } else {
    out(
      `${f.id}: ${f.name}: from the least-cost mix (${first.co2ePerTon.toFixed(1)} kg CO2e/t, ${first.costPerTon.toFixed(2)}/t) to the least-CO2e mix (${last.co2ePerTon.toFixed(1)} kg CO2e/t, ${last.costPerTon.toFixed(2)}/t), ${f.points.length} points.\n` +
        "Each point is the cheapest mix at its footprint; the last column is the cost of each tonne of CO2e avoided on the way to the next point.\n\n",
    );
  }
  printRows(
    io,
    f.points.map((p, k) => ({ p, k, next: f.abatement[k] ?? null })),
    [
      ["POINT", ({ k }) => String(k + 1)],
      ["KG CO2E/T", ({ p }) => p.co2ePerTon.toFixed(1)],
      ["COST/T", ({ p }) => p.costPerTon.toFixed(2)],
      ["COST/T CO2E AVOIDED", ({ next }) => (next === null ? "" : next.costPerTonneCo2e === null ? "-" : next.costPerTonneCo2e.toFixed(2))],
    ],
    false,
  );
  out("\nComposition (%):\n");
  const names = [...new Set(f.points.flatMap((p) => p.ingredients.map((i) => i.name)))];
  printRows(
    io,
    names.map((name) => ({ name, shares: f.points.map((p) => p.ingredients.find((i) => i.name === name)?.percent ?? 0) })),
    [["INGREDIENT", (r) => r.name], ...f.points.map((_, k): [string, (r: { shares: number[] }) => string] => [String(k + 1), (r) => r.shares[k]!.toFixed(2)])],
    false,
  );
  if (f.points.length > 1) out("\n" + frontierChart(f.points).join("\n") + "\n");
}
