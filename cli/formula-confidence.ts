/**
 * Optimizing to a confidence level from the command line (docs/decisions.md#optimizing-to-a-confidence-level):
 * `formula confidence`, GET /v1/formulas/:id/confidence as a table.
 */
import type { Command } from "commander";
import type { CandidateSet } from "../src/optimize/candidates.ts";
import type { CurvePoint } from "../src/optimize/confidence-curve.ts";
import { optimizeInput } from "../src/optimize/optimize-task.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { CURVE_POINTS, sinceOrDefault } from "../src/schemas/confidence.ts";
import { dataOption, intInRange, jsonOption, printDocument, printRows, signed, withData, withExamples, workspaceOption } from "./common.ts";
import { probabilityOption, SINCE_HELP, sinceOption } from "./confidence-report.ts";
import { collectPrice } from "./formula-optimize.ts";
import { candidatesOption, formulaToSolve } from "./what-if.ts";
import type { Io } from "./io.ts";

interface Options {
  from: number;
  to: number;
  points: number;
  analysesSince?: string;
  candidates: CandidateSet;
  include?: string;
  price: Map<string, number>;
  includeOutOfStock?: boolean;
  json?: boolean;
  workspace: string;
  data: string;
}

/** `feedbase formula confidence`: the data of GET /v1/formulas/:id/confidence as a table. */
export function registerFormulaConfidence(group: Command, io: Io): void {
  withExamples(
    group
      .command("confidence <id>")
      .description("what each extra point of assurance costs: the least-cost mix meeting every nutrient limit with each probability from --from to --to")
      .option("--from <p>", "the lowest probability (0.5 to 0.999)", probabilityOption("from"), 0.5)
      .option("--to <p>", "the highest probability (0.5 to 0.999)", probabilityOption("to"), 0.99)
      .option("--points <n>", `how many evenly spaced probabilities (${CURVE_POINTS.min} to ${CURVE_POINTS.max})`, intInRange("--points", CURVE_POINTS.min, CURVE_POINTS.max), CURVE_POINTS.default)
      .option("--analyses-since <date>", SINCE_HELP, sinceOption)
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
          const input = optimizeInput(formula, lookup, options);
          const sds = await store.variability(ws, input.ingredients.map((i) => i.name), sinceOrDefault(opts.analysesSince, Date.now()));
          const curve = await solveInProcess("confidenceCurve", { ...input, sds, from: opts.from, to: opts.to, points: opts.points });
          if (opts.json) printDocument(io, curve);
          else printCurve(io, curve);
        }),
      ),
    [
      "feedbase formula confidence layer-phase-1",
      "feedbase formula confidence turkey-starter --from 0.8 --to 0.99 --points 20",
      "feedbase formula confidence layer-phase-1 --analyses-since 2026-01-01 --json",
    ],
  );
}

function printCurve(io: Io, c: { id: string; name: string; points: CurvePoint[] }): void {
  io.out(`${c.id}: ${c.name}: the least-cost mix meeting every nutrient limit with each probability (sds from the lab analyses):\n\n`);
  printRows(
    io,
    c.points.map((p, k) => ({ p, before: k === 0 ? null : c.points[k - 1]!.costPerTon })),
    [
      ["CONFIDENCE", ({ p }) => `${(p.confidence * 100).toFixed(2)} %`],
      ["COST/T", ({ p }) => (p.costPerTon === null ? "- (no mix)" : p.costPerTon.toFixed(2))],
      ["CHANGE/T", ({ p, before }) => (p.costPerTon === null || before === null ? "" : signed(p.costPerTon - before))],
      ["MIX (%)", ({ p }) => (p.ingredients === null ? "" : p.ingredients.map((i) => `${i.name} ${i.percent}`).join(", "))],
    ],
    false,
  );
}
