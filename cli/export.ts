import { Option, type Command } from "commander";
import type { AdminStore } from "../src/admin/ops.ts";
import { formulasToCsv, formulasToJson } from "../src/domain/formula-file.ts";
import { ingredientsToCsv, ingredientsToJson } from "../src/domain/ingredient-file.ts";
import { nutrientsToCsv, nutrientsToJson } from "../src/domain/nutrient-file.ts";
import type { NutrientDefinition } from "../src/domain/nutrients.ts";
import { dataOption, oneOf, withExamples, withData, workspaceOption } from "./common.ts";
import type { Io } from "./io.ts";

/** One exportable kind: how to list it and how to write it in each format. */
interface ExportKind<T> {
  name: string;
  description: string;
  list(store: AdminStore, workspaceId: number): T[] | Promise<T[]>;
  csv(items: T[]): string;
  json(items: T[]): string;
  examples: string[];
}

function exportCommand<T>(group: Command, kind: ExportKind<T>, io: Io): void {
  withExamples(
    group
      .command(kind.name)
      .description(kind.description)
      .addOption(workspaceOption("workspace to export"))
      .addOption(new Option("--format <format>", "output format: json or csv, any case").default("json").argParser(oneOf("--format", ["json", "csv"])))
      .addOption(dataOption())
      .action(
        (opts: { workspace: string; format: "json" | "csv"; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const items = await kind.list(store, (await workspace()).id);
            io.out(opts.format === "csv" ? kind.csv(items) : kind.json(items));
          });
        },
      ),
    kind.examples,
  );
}

/** `feedbase export ingredients|formulas|nutrients` to stdout; JSON (and ingredient and nutrient CSV) import back byte for byte. */
export function registerExport(program: Command, io: Io): void {
  const group = program.command("export").description("export ingredients, formulas or nutrient definitions to stdout, in the import formats");
  exportCommand(group, {
    name: "ingredients",
    description: "every ingredient in full: JSON keeps timestamps; CSV has one column per nutrient key, sorted",
    list: (store, workspaceId) => store.listIngredientDetails(workspaceId),
    csv: ingredientsToCsv,
    json: ingredientsToJson,
    examples: ["feedbase export ingredients --format csv > ingredients.csv", "feedbase export ingredients --workspace north-mill > ingredients.json"],
  }, io);
  exportCommand(group, {
    name: "formulas",
    description: "every formula: JSON in the import format (row prices and nutrients included); CSV one row per composition line, for spreadsheets (export only)",
    list: (store, workspaceId) => store.listFormulaDetails(workspaceId),
    csv: formulasToCsv,
    json: formulasToJson,
    examples: ["feedbase export formulas > formulas.json", "feedbase export formulas --format csv > formulas.csv"],
  }, io);
  exportCommand(group, {
    name: "nutrients",
    description: "every nutrient definition (key, name, unit, basis), by key; keys used without one are not exported",
    list: async (store, workspaceId) => (await store.listNutrients(workspaceId)).filter((n): n is NutrientDefinition => n.name !== null),
    csv: nutrientsToCsv,
    json: nutrientsToJson,
    examples: ["feedbase export nutrients --format csv > nutrients.csv", "feedbase export nutrients --workspace north-mill > nutrients.json"],
  }, io);
}
