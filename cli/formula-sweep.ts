import type { Command } from "commander";
import { ValidationError } from "../src/domain/errors.ts";
import { NO_OPTIONS } from "../src/optimize/result.ts";
import { sweepInput } from "../src/optimize/sweep-task.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { sweepRange } from "../src/optimize/sweep-params.ts";
import { dataOption, jsonOption, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import { UsageError } from "./failure.ts";
import type { Io } from "./io.ts";

interface Options {
  ingredient?: string;
  from?: string;
  to?: string;
  points?: string;
  json?: boolean;
  workspace: string;
  data: string;
}

/** `feedbase formula sweep`: the data of GET /v1/formulas/:id/sweep as a table. */
export function registerFormulaSweep(group: Command, io: Io): void {
  withExamples(
    group
      .command("sweep <id>")
      .description("how the least-cost mix moves with one ingredient's price: its percent and the cost per ton at evenly spaced prices, and every price where the percent changes")
      .option("--ingredient <name>", "the candidate whose price moves")
      .option("--from <price>", "lowest price per ton (>= 0)")
      .option("--to <price>", "highest price per ton")
      .option("--points <n>", "evenly spaced prices from --from to --to, 2 to 201 (default 51)")
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(dataOption())
      .action(async (id: string, opts: Options) => {
        let range;
        try {
          range = sweepRange({ ingredient: opts.ingredient, from: opts.from, to: opts.to, points: opts.points });
        } catch (error) {
          if (error instanceof ValidationError) throw new UsageError(error.message.replace(/^(ingredient|from|to|points)\b/, "--$1").replace(/less than to$/, "less than --to"));
          throw error;
        }
        return withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          const formula = await store.requireFormula(ws, id);
          const ingredients = new Map((await store.listIngredientDetails(ws)).map((i) => [i.name, i]));
          const result = await solveInProcess("sweep", sweepInput(formula, (name) => ingredients.get(name) ?? null, NO_OPTIONS, range));
          if (opts.json) return printDocument(io, result);
          io.out(`${result.id}: ${result.name}, ${result.ingredient} from ${range.from} to ${range.to} per ton: ${result.status}\n`);
          printRows(io, result.points, [
            ["PRICE/T", (p) => p.price.toFixed(2)],
            ["PERCENT", (p) => (p.percent === null ? "-" : p.percent.toFixed(4))],
            ["COST/T", (p) => (p.costPerTon === null ? "-" : p.costPerTon.toFixed(2))],
          ], false);
          io.out(result.breakpoints.length === 0 ? "\nNo breakpoint: the percent stays the same over the whole range.\n" : "\nBreakpoints (the percent changes at these prices per ton):\n");
          if (result.breakpoints.length > 0) printRows(io, result.breakpoints, [
            ["PRICE/T", (b) => b.price.toFixed(2)],
            ["PERCENT BELOW", (b) => b.percentBelow.toFixed(4)],
            ["PERCENT ABOVE", (b) => b.percentAbove.toFixed(4)],
          ], false);
        });
      }),
    [
      "feedbase formula sweep broiler-starter --ingredient 'Soybean meal 48%' --from 300 --to 600",
      "feedbase formula sweep layer-phase-1 --ingredient Maize --from 150 --to 350 --points 201 --json",
    ],
  );
}
