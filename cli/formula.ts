import type { Command } from "commander";
import { isoTime } from "../src/domain/time.ts";
import { registerFormulaFrontier } from "./formula-frontier.ts";
import { registerFormulaConfidence } from "./formula-confidence.ts";
import { registerFormulaOptimize } from "./formula-optimize.ts";
import { registerFormulaShow } from "./formula-show.ts";
import { registerFormulaBatch } from "./formula-batch.ts";
import { registerFormulaSweep } from "./formula-sweep.ts";
import { dataOption, instantOption, printDocument, printRows, signed, withExamples, withData, workspaceOption, jsonOption } from "./common.ts";
import type { Io } from "./io.ts";

/** `feedbase formula list|show|cost|optimize|delete`. */
export function registerFormula(program: Command, io: Io): void {
  const group = program.command("formula").description("saved formulas: list, show, costs, least-cost optimization and clean-up (formulas enter through feedbase import formulas or PUT /v1/formulas/:id)");

  registerFormulaShow(group, io);

  withExamples(
    group
      .command("cost <id>")
      .description("a formula recosted at the prices in effect at an instant (default now), row by row against its saved prices")
      .addOption(instantOption("--at <time>", "the prices in effect at this instant (default: today's)"))
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(dataOption())
      .action(
        (id: string, opts: { at?: string; workspace: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const cost = await store.formulaCost((await workspace()).id, id, opts.at ?? null, opts.at ?? isoTime(Date.now()));
            if (opts.json) return printDocument(io, cost);
            const percent = cost.changePercent === null ? "" : `, ${signed(cost.changePercent)}%`;
            io.out(
              `${cost.id}: ${cost.name}, batch of ${cost.batchSize} kg, at the prices of ${cost.at}\n` +
                `Saved cost ${cost.totalCost.toFixed(2)} → cost ${cost.cost.toFixed(2)} per batch (${signed(cost.change)}${percent}); ` +
                `per tonne ${(cost.costPerTon - cost.changePerTon).toFixed(2)} → ${cost.costPerTon.toFixed(2)} (${signed(cost.changePerTon)})\n`,
            );
            printRows(io,
              cost.ingredients,
              [
                ["INGREDIENT", (r) => r.name],
                ["%", (r) => String(r.percent)],
                ["AMOUNT KG", (r) => String(r.amount)],
                ["SAVED PRICE/T", (r) => String(r.savedPrice)],
                ["PRICE/T", (r) => String(r.price)],
                ["COST", (r) => r.cost.toFixed(2)],
                ["CHANGE", (r) => signed(r.change)],
              ],
              false,
            );
          });
        },
      ),
    ["feedbase formula cost broiler-starter", "feedbase formula cost broiler-starter --at 2026-10-01T00:00:00Z", "feedbase formula cost layer-phase-1 --workspace north-mill --json"],
  );

  registerFormulaOptimize(group, io);
  registerFormulaBatch(group, io);
  registerFormulaSweep(group, io);
  registerFormulaFrontier(group, io);
  registerFormulaConfidence(group, io);

  withExamples(
    group
      .command("delete <id>")
      .description("delete a formula and its composition")
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(dataOption())
      .action(
        (id: string, opts: { workspace: string; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            await store.deleteFormula(ws.id, id);
            io.out(`Deleted formula ${id} from workspace ${ws.slug}\n`);
          });
        },
      ),
    ["feedbase formula delete broiler-starter", "feedbase formula delete frm_8sK2mQ0aZx7TLc1P --workspace north-mill"],
  );
}
