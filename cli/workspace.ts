import type { Command } from "commander";
import { UsageError, dataOption, openExisting, printRows, run, withExamples } from "./common.ts";
import { WORKSPACE_SLUG, createWorkspace, listWorkspaces } from "../src/store/workspaces.ts";
import { isoTime } from "../src/domain/time.ts";

/** `feedbase workspace create|list`. */
export function registerWorkspace(program: Command): void {
  const group = program.command("workspace").description("workspaces: each key and all data belong to one");

  withExamples(
    group
      .command("create <slug>")
      .description("create a workspace (slug: lowercase letters, digits and dashes)")
      .option("--name <name>", "display name (defaults to the slug)")
      .addOption(dataOption())
      .action(
        run((slug: string, opts: { name?: string; data: string }) => {
          if (!WORKSPACE_SLUG.test(slug)) throw new UsageError(`Workspace slug must match ${WORKSPACE_SLUG.source}`);
          const db = openExisting(opts.data);
          const ws = createWorkspace(db, slug, opts.name ?? slug, isoTime(Date.now()));
          process.stdout.write(`Created workspace ${ws.slug}\n`);
        }),
      ),
    ["feedbase workspace create north-mill --name 'North mill'"],
  );

  withExamples(
    group
      .command("list")
      .description("list workspaces")
      .option("--json", "one JSON object per line")
      .addOption(dataOption())
      .action(
        run((opts: { json?: boolean; data: string }) => {
          const rows = listWorkspaces(openExisting(opts.data)).map(({ slug, name, createdAt }) => ({ slug, name, createdAt }));
          printRows(rows, [["SLUG", (w) => w.slug], ["NAME", (w) => w.name], ["CREATED", (w) => w.createdAt]], opts.json);
        }),
      ),
    ["feedbase workspace list --json"],
  );
}
