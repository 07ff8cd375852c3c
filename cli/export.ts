import { Option, type Command } from "commander";
import { formulasToCsv, formulasToJson } from "../src/domain/formula-file.ts";
import { ingredientsToCsv, ingredientsToJson } from "../src/domain/ingredient-file.ts";
import { listFormulaDetails } from "../src/store/formulas.ts";
import { listIngredientDetails } from "../src/store/ingredients.ts";
import { requireWorkspace } from "../src/store/workspaces.ts";
import { dataOption, openExisting, run, withExamples } from "./common.ts";

const formatOption = () => new Option("--format <format>", "output format").choices(["json", "csv"]).default("json");

/** `feedbase export ingredients|formulas` to stdout; JSON (and ingredient CSV) import back byte for byte. */
export function registerExport(program: Command): void {
  const group = program.command("export").description("export ingredients or formulas to stdout, in the import formats");

  withExamples(
    group
      .command("ingredients")
      .description("every ingredient in full: JSON keeps timestamps; CSV has one column per nutrient key, sorted")
      .option("--workspace <slug>", "workspace to export", "default")
      .addOption(formatOption())
      .addOption(dataOption())
      .action(
        run((opts: { workspace: string; format: "json" | "csv"; data: string }) => {
          const db = openExisting(opts.data);
          const ingredients = listIngredientDetails(db, requireWorkspace(db, opts.workspace).id);
          process.stdout.write(opts.format === "csv" ? ingredientsToCsv(ingredients) : ingredientsToJson(ingredients));
        }),
      ),
    ["feedbase export ingredients --format csv > ingredients.csv", "feedbase export ingredients --workspace north-mill > ingredients.json"],
  );

  withExamples(
    group
      .command("formulas")
      .description("every formula: JSON in the import format (row prices and nutrients included); CSV one row per composition line, for spreadsheets (export only)")
      .option("--workspace <slug>", "workspace to export", "default")
      .addOption(formatOption())
      .addOption(dataOption())
      .action(
        run((opts: { workspace: string; format: "json" | "csv"; data: string }) => {
          const db = openExisting(opts.data);
          const formulas = listFormulaDetails(db, requireWorkspace(db, opts.workspace).id);
          process.stdout.write(opts.format === "csv" ? formulasToCsv(formulas) : formulasToJson(formulas));
        }),
      ),
    ["feedbase export formulas > formulas.json", "feedbase export formulas --format csv > formulas.csv"],
  );
}
