import type { Command } from "commander";
import { dataOption, printRows, withExamples, withData, jsonOption } from "./common.ts";
import { UsageError } from "./failure.ts";
import type { Io } from "./io.ts";
import { WORKSPACE_SLUG } from "../src/store/workspaces.ts";
import { isoTime } from "../src/domain/time.ts";

/** `feedbase workspace create|list`. */
export function registerWorkspace(program: Command, io: Io): void {
  const group = program.command("workspace").description("workspaces: each key and all data belong to one");

  withExamples(
    group
      .command("create <slug>")
      .description("create a workspace (slug: lowercase letters, digits and dashes)")
      .option("--name <name>", "display name (defaults to the slug)")
      .addOption(dataOption())
      .action(
        (slug: string, opts: { name?: string; data: string }) => {
          if (!WORKSPACE_SLUG.test(slug)) throw new UsageError(`Workspace slug must match ${WORKSPACE_SLUG.source}`);
          return withData(opts, async ({ store }) => {
            const ws = await store.createWorkspace(slug, opts.name ?? slug, isoTime(Date.now()));
            io.out(`Created workspace ${ws.slug}\n`);
          });
        },
      ),
    ["feedbase workspace create north-mill --name 'North mill'"],
  );

  withExamples(
    group
      .command("list")
      .description("list workspaces")
      .addOption(jsonOption("one JSON object per line"))
      .addOption(dataOption())
      .action(
        async (opts: { json?: boolean; data: string }) => {
          const rows = (await withData(opts, ({ store }) => store.listWorkspaces())).map(({ slug, name, createdAt }) => ({ slug, name, createdAt }));
          printRows(io, rows, [["SLUG", (w) => w.slug], ["NAME", (w) => w.name], ["CREATED", (w) => w.createdAt]], opts.json);
        },
      ),
    ["feedbase workspace list --json"],
  );
}
