import type { Command } from "commander";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { savingsWorklist } from "../src/optimize/worklist.ts";
import { everyIngredient, type CandidateSet } from "../src/optimize/candidates.ts";
import { NO_OPTIONS } from "../src/optimize/result.ts";
import { candidatesOption } from "./what-if.ts";
import { dataOption, instantOption, printDocument, printRows, signed, withExamples, withData, workspaceOption, jsonOption } from "./common.ts";
import type { Io } from "./io.ts";

/** Drivers shown in the table's last column; `--json` has them all. */
const DRIVERS_SHOWN = 3;

/** `feedbase report cost-changes`: which formulas moved, and why (the data of GET /v1/reports/cost-changes). */
export function registerReport(program: Command, io: Io): void {
  const group = program.command("report").description("reports over the workspace's data");

  withExamples(
    group
      .command("cost-changes")
      .description("formulas whose cost at today's prices differs from their saved cost (or their cost at --since), largest move first, with the prices that moved them")
      .addOption(instantOption("--since <time>", "compare with the prices in effect then instead of each formula's saved prices"))
      .addOption(workspaceOption("workspace to report on"))
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(dataOption())
      .action(
        (opts: { since?: string; workspace: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const changes = await store.costChanges((await workspace()).id, opts.since ?? null);
            if (opts.json) return printDocument(io, changes);
            const basis = opts.since ? `since ${opts.since}` : "since each formula was saved";
            io.out(`Cost per batch and per tonne at today's prices, ${basis}: ${changes.length} formula${changes.length === 1 ? "" : "s"} moved\n`);
            printRows(io,
              changes,
              [
                ["ID", (c) => c.id],
                ["NAME", (c) => c.name],
                ["BATCH KG", (c) => String(c.batchSize)],
                ["THEN/BATCH", (c) => c.costThen.toFixed(2)],
                ["NOW/BATCH", (c) => c.costNow.toFixed(2)],
                ["CHANGE/BATCH", (c) => signed(c.change)],
                ["%", (c) => (c.changePercent === null ? "-" : signed(c.changePercent))],
                ["NOW/T", (c) => c.costPerTon.toFixed(2)],
                ["CHANGE/T", (c) => signed(c.changePerTon)],
                [
                  "DRIVERS",
                  (c) =>
                    c.drivers
                      .slice(0, DRIVERS_SHOWN)
                      .map((d) => `${d.name} ${signed(d.change)}`)
                      .join(", ") + (c.drivers.length > DRIVERS_SHOWN ? `, +${c.drivers.length - DRIVERS_SHOWN} more` : ""),
                ],
              ],
              false,
            );
          });
        },
      ),
    ["feedbase report cost-changes", "feedbase report cost-changes --since 2026-10-01T00:00:00Z", "feedbase report cost-changes --workspace north-mill --json"],
  );

  withExamples(
    group
      .command("savings")
      .description("the worklist: every formula optimized at today's prices and stock, the largest saving per ton first, infeasible ones last; SAVED MIX says whether the saved composition meets its own limits (when not, the saving includes the cost of meeting them)")
      .addOption(candidatesOption())
      .addOption(workspaceOption("workspace to report on"))
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(dataOption())
      .action(
        (opts: { workspace: string; json?: boolean; data: string; candidates: CandidateSet }) => {
          return withData(opts, async ({ store, workspace }) => {
            const ws = (await workspace()).id;
            const every = await store.listIngredientDetails(ws);
            const ingredients = new Map(every.map((i) => [i.name, i]));
            const options = opts.candidates === "all" ? everyIngredient(NO_OPTIONS, every) : NO_OPTIONS;
            const items = await savingsWorklist(solveInProcess, await store.listFormulaDetails(ws), (name) => ingredients.get(name) ?? null, 1, options);
            if (opts.json) return printDocument(io, items);
            io.out(`Least-cost reformulation at today's prices: ${items.filter((i) => (i.saving?.perBatch ?? 0) > 0).length} of ${items.length} formulas can be made cheaper\n`);
            printRows(
              io,
              items,
              [
                ["ID", (i) => i.id],
                ["NAME", (i) => i.name],
                ["STATUS", (i) => i.status],
                ["COST", (i) => i.cost.toFixed(2)],
                ["OPTIMIZED", (i) => (i.optimizedCost === null ? "-" : i.optimizedCost.toFixed(2))],
                ["SAVING/BATCH", (i) => (i.saving === null ? "-" : i.saving.perBatch.toFixed(2))],
                ["SAVING/T", (i) => (i.saving === null ? "-" : i.saving.perTon.toFixed(2))],
                ["%", (i) => (i.saving?.percent == null ? "-" : i.saving.percent.toFixed(2))],
                ["SAVED MIX", (i) => (i.savedMeetsLimits ? "meets limits" : `misses ${i.violations.join(", ")}`)],
              ],
              false,
            );
            // A formula the solver could not answer (status error) says why under the table.
            for (const i of items) if (i.message !== undefined) io.out(`${i.id}: ${i.message}\n`);
          });
        },
      ),
    ["feedbase report savings", "feedbase report savings --candidates all", "feedbase report savings --workspace north-mill --json"],
  );
}
