import type { Command } from "commander";
import { dataOption, withExamples, withData, workspaceOption } from "./common.ts";
import type { Io } from "./io.ts";

/** `feedbase ingredient delete`: admin clean-up (the API has no delete). */
export function registerIngredient(program: Command, io: Io): void {
  const group = program.command("ingredient").description("ingredient clean-up (create and price changes go through the API or import)");

  withExamples(
    group
      .command("delete <name>")
      .description("delete an ingredient; refused while a saved formula uses it (the formulas are named)")
      .addOption(workspaceOption("workspace holding the ingredient"))
      .addOption(dataOption())
      .action(
        (name: string, opts: { workspace: string; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            await store.deleteIngredient(ws.id, name);
            io.out(`Deleted ingredient ${name} from workspace ${ws.slug}\n`);
          });
        },
      ),
    ["feedbase ingredient delete 'Meat and bone meal 50%'", "feedbase ingredient delete Maize --workspace north-mill"],
  );
}
