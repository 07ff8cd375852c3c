import type { Command } from "commander";
import type { Analysis, NutrientStats } from "../src/domain/analyses.ts";
import type { NutrientListing } from "../src/domain/nutrients.ts";
import { dataOption, instantOption, jsonOption, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import type { Io } from "./io.ts";

/** A value with its key's unit (`nutrient list`); a key without a definition says so once, in its heading. */
const withUnit = (value: number | null, unit: string | undefined): string => (value === null ? "-" : unit ? `${value} ${unit}` : String(value));
const heading = (key: string, unit: string | undefined) => (unit ? key : `${key} (no unit: feedbase nutrient set)`);
/** An instant as a person reads it: date and minute, UTC said once in the heading. */
const minute = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** `feedbase analysis list|delete` (recording is the API's or `feedbase import analyses`). */
export function registerAnalysis(program: Command, io: Io): void {
  const group = program.command("analysis").description("the mill's lab and NIR analyses of its ingredients: their spread is what the confidence optimization formulates with");

  withExamples(
    group
      .command("list <name>")
      .description("an ingredient's analyses, newest sampled first, and per nutrient n, mean, sd (n − 1), min, max beside the ingredient's own (book) value, in each key's unit")
      .addOption(instantOption("--from <time>", "only analyses sampled at or after this instant", "up"))
      .addOption(instantOption("--to <time>", "only analyses sampled before this instant", "up"))
      .addOption(workspaceOption("workspace holding the ingredient"))
      .addOption(jsonOption("print the API's data (GET /v1/ingredients/:name/analyses) as one JSON document"))
      .addOption(dataOption())
      .action((name: string, opts: { from?: string; to?: string; workspace: string; json?: boolean; data: string }) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const found = await store.listAnalyses(ws.id, name, { from: opts.from, to: opts.to });
          if (opts.json) return printDocument(io, found);
          const units = new Map((await store.listNutrients(ws.id)).map((n: NutrientListing) => [n.key, n.unit ?? undefined]));
          const keys = Object.keys(found.stats);
          io.out(`${found.name}: ${found.analyses.length} ${found.analyses.length === 1 ? "analysis" : "analyses"} (workspace ${ws.slug})\n\n`);
          printRows(
            io,
            found.analyses,
            [
              ["SAMPLED (UTC)", (a: Analysis) => minute(a.sampledAt)],
              ...keys.map((key): [string, (a: Analysis) => string] => [heading(key, units.get(key)), (a) => withUnit(a.nutrients[key] ?? null, units.get(key))]),
              ["LOT", (a: Analysis) => a.lot ?? "-"],
              ["LAB", (a: Analysis) => a.lab ?? "-"],
              ["ID", (a: Analysis) => a.id],
            ],
            false,
          );
          if (keys.length === 0) return;
          io.out("\n");
          const stat = (get: (s: NutrientStats) => number | null) => (row: [string, NutrientStats]) => withUnit(get(row[1]), units.get(row[0]));
          printRows(
            io,
            Object.entries(found.stats),
            [
              ["NUTRIENT", ([key]) => heading(key, units.get(key))],
              ["N", ([, s]) => String(s.n)],
              ["MEAN", stat((s) => s.mean)],
              ["SD", stat((s) => s.sd)],
              ["MIN", stat((s) => s.min)],
              ["MAX", stat((s) => s.max)],
              ["BOOK", stat((s) => s.book)],
            ],
            false,
          );
          io.out("\nSD is the sample standard deviation (n − 1); the optimizer uses it from 3 analyses in its window (default the last 365 days).\n");
        }),
      ),
    ["feedbase analysis list 'Soybean meal 48%'", "feedbase analysis list Maize --from 2026-01-01 --workspace north-mill", "feedbase analysis list Maize --json"],
  );

  withExamples(
    group
      .command("delete <id>")
      .description("delete one analysis (an entry made in error); it fires no event")
      .addOption(workspaceOption("workspace holding the analysis"))
      .addOption(dataOption())
      .action((id: string, opts: { workspace: string; data: string }) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const gone = await store.deleteAnalysis(ws.id, id);
          io.out(`Deleted analysis ${gone.id} of ${gone.name}, sampled ${gone.sampledAt} (workspace ${ws.slug})\n`);
        }),
      ),
    ["feedbase analysis delete ana_4Kp0cX9qLm2ZsT7e", "feedbase analysis delete ana_4Kp0cX9qLm2ZsT7e --workspace north-mill"],
  );
}
