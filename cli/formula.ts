import type { Command } from "commander";
import { deleteFormula } from "../src/store/formulas.ts";
import { requireWorkspace } from "../src/store/workspaces.ts";
import { dataOption, openExisting, run, withExamples } from "./common.ts";

/** `feedbase formula delete`: admin clean-up (formulas are read-only over HTTP). */
export function registerFormula(program: Command): void {
  const group = program.command("formula").description("formula clean-up (formulas enter through feedbase import formulas)");

  withExamples(
    group
      .command("delete <id>")
      .description("delete a formula and its composition")
      .option("--workspace <slug>", "workspace holding the formula", "default")
      .addOption(dataOption())
      .action(
        run((id: string, opts: { workspace: string; data: string }) => {
          const db = openExisting(opts.data);
          const ws = requireWorkspace(db, opts.workspace);
          deleteFormula(db, ws.id, id);
          process.stdout.write(`Deleted formula ${id} from workspace ${ws.slug}\n`);
        }),
      ),
    ["feedbase formula delete broiler-starter", "feedbase formula delete frm_8sK2mQ0aZx7TLc1P --workspace north-mill"],
  );
}
