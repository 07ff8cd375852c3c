import type { Command } from "commander";
import { costPerTonAt } from "../src/domain/recost.ts";
import { printLimits } from "./limits-table.ts";
import { dataOption, jsonOption, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import type { Io } from "./io.ts";

const savedPrice = (_: string, row: { price: number }) => row.price;

/** `feedbase formula list` and `formula show <id>`: the saved formulas, and one with its nutrients against its limits. */
export function registerFormulaShow(group: Command, io: Io): void {
  withExamples(
    group
      .command("list")
      .description("the saved formulas, newest first, with their cost per batch and per tonne (saved prices)")
      .addOption(workspaceOption("workspace to list"))
      .addOption(jsonOption("one JSON object per line, as GET /v1/formulas lists them"))
      .addOption(dataOption())
      .action((opts: { workspace: string; json?: boolean; data: string }) =>
        withData(opts, async ({ store, workspace }) => {
          const formulas = await store.listFormulaDetails((await workspace()).id);
          if (opts.json) {
            for (const { id, name, species, subcategory, batchSize, totalCost, createdAt } of formulas) printDocument(io, { id, name, species, subcategory, batchSize, totalCost, createdAt });
            return;
          }
          printRows(
            io,
            formulas,
            [
              ["ID", (f) => f.id],
              ["NAME", (f) => f.name],
              ["SPECIES", (f) => f.species],
              ["SUBCATEGORY", (f) => f.subcategory],
              ["BATCH KG", (f) => String(f.batchSize)],
              ["COST/BATCH", (f) => f.totalCost.toFixed(2)],
              ["COST/T", (f) => costPerTonAt(f.ingredients, savedPrice).toFixed(2)],
              ["CREATED", (f) => f.createdAt],
            ],
            false,
          );
        }),
      ),
    ["feedbase formula list", "feedbase formula list --workspace north-mill --json"],
  );

  withExamples(
    group
      .command("show <id>")
      .description("one formula: its composition with inclusion limits, and every nutrient against its limits, with units")
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(jsonOption("print the API's data (GET /v1/formulas/:id) as one JSON document"))
      .addOption(dataOption())
      .action((id: string, opts: { workspace: string; json?: boolean; data: string }) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          const f = await store.requireFormula(ws, id);
          if (opts.json) return printDocument(io, f);
          const definitions = new Map((await store.listNutrients(ws)).map((d) => [d.key, d]));
          io.out(`${f.id}: ${f.name} (${f.species}, ${f.subcategory}), batch of ${f.batchSize} kg, saved ${f.createdAt}\n`);
          io.out(`Cost ${f.totalCost.toFixed(2)} per batch, ${costPerTonAt(f.ingredients, savedPrice).toFixed(2)} per tonne (saved prices)\n\n`);
          const limits = new Map(f.constraints.ingredients.map((c) => [c.name, c]));
          const percent = (v: number | null | undefined) => (v === null || v === undefined ? "-" : `${v} %`);
          printRows(
            io,
            f.ingredients,
            [
              ["INGREDIENT", (r) => r.name],
              ["%", (r) => String(r.percent)],
              ["KG", (r) => String(r.amount)],
              ["PRICE/T", (r) => String(r.price)],
              ["COST", (r) => r.cost.toFixed(2)],
              ["MIN", (r) => percent(limits.get(r.name)?.min)],
              ["MAX", (r) => percent(limits.get(r.name)?.max)],
            ],
            false,
          );
          io.out("\nNutrients against the limits (values of the saved mix):\n");
          printLimits(io, f, definitions);
        }),
      ),
    ["feedbase formula show broiler-starter", "feedbase formula show layer-phase-1 --workspace north-mill --json"],
  );
}
