import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { unmetLimitsWarnings } from "../src/domain/formula-writes.ts";
import type { FormulaDetail } from "../src/schemas/formulas.ts";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import type { FileFormat } from "../src/domain/ingredient-file.ts";
import { isoTime } from "../src/domain/time.ts";
import { dataOption, printRows, withExamples, withData, workspaceOption } from "./common.ts";
import { CliFailure } from "./failure.ts";
import type { Io } from "./io.ts";

/**
 * A file as UTF-8 text. Strict decoding: a spreadsheet's legacy encoding would otherwise turn "Maïs"
 * into "Ma�s" without a word.
 */
function readText(file: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CliFailure(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CliFailure(`${file} is not UTF-8 text (save it as "CSV UTF-8" or JSON)`);
  }
}

/** By extension; otherwise a file that starts with `[` is JSON and anything else CSV. */
function formatOf(file: string, text: string): FileFormat {
  const ext = extname(file).toLowerCase();
  if (ext === ".csv" || ext === ".json") return ext.slice(1) as FileFormat;
  return text.trimStart().startsWith("[") ? "json" : "csv";
}

/** Run an import; a refusal names the file and ends with the same reassurance: all or nothing. */
async function allOrNothing<T>(file: string, importFile: () => T | Promise<T>): Promise<T> {
  try {
    return await importFile();
  } catch (error) {
    if (error instanceof Error) error.message = `${file}: ${error.message}; nothing was imported`;
    throw error;
  }
}

/**
 * One warning line on stderr per saved formula that misses its own limits. Not a rejection: a saved
 * formula is the formulator's record, but the admin should know.
 * @example warnUnmetLimits(io, await store.importFormulas(ws, file, options)) // warning: starter does not meet its constraints: CP 24.5 < min 30
 */
export function warnUnmetLimits(io: Io, saved: readonly FormulaDetail[]): void {
  for (const f of saved) for (const warning of unmetLimitsWarnings(f)) io.err(`warning: ${warning}\n`);
}

/** `--no-events` on every import: for a first load, which no receiver needs to hear about row by row. */
const NO_EVENTS = ["--no-events", "fire no webhook events (a first load); the price history is recorded as always"] as const;

/** `feedbase import ingredients|prices|formulas`: validate the whole file, then write it in one short transaction. */
export function registerImport(program: Command, io: Io): void {
  const group = program.command("import").description("import ingredients (CSV or JSON), prices (CSV), formulas (JSON), nutrient definitions or lab analyses (CSV): all or nothing, firing the events the API would");

  withExamples(
    group
      .command("ingredients <file>")
      .description("import ingredients from CSV (header name,category,price,inStock,<nutrient key>...) or JSON (the export's format)")
      .addOption(workspaceOption("workspace to import into"))
      .option("--update", "change names that already exist where the file names a field: absent columns keep theirs, an empty nutrient cell removes that nutrient")
      .option(...NO_EVENTS)
      .addOption(dataOption())
      .action(
        (file: string, opts: { workspace: string; update?: boolean; events: boolean; data: string }) => {
          const text = readText(file);
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const result = await allOrNothing(file, () =>
              store.importIngredients(ws.id, text, formatOf(file, text), {
                update: opts.update === true,
                now: isoTime(Date.now()),
                events: opts.events,
                onProgress: (checked, total) => io.err(`progress: checked ${checked.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows\n`),
              }),
            );
            const total = result.added + result.updated;
            io.out(`Imported ${total} ingredient${total === 1 ? "" : "s"} into workspace ${ws.slug} (${result.added} new, ${result.updated} updated)\n`);
          });
        },
      ),
    [
      "feedbase import ingredients prices.csv",
      "feedbase import ingredients ingredients.json --workspace north-mill --update",
      "feedbase import ingredients prices.csv --update   # header name,price: prices only, nutrients kept",
      "feedbase import ingredients first-load.csv --no-events",
      "printf 'name,category,price,inStock,CP\\nMaize,Cereals,228,yes,8.5\\n' > maize.csv && feedbase import ingredients maize.csv",
    ],
  );

  withExamples(
    group
      .command("prices <file>")
      .description("the weekly purchasing file: CSV with columns name,price and optionally inStock, at (a past date-time or date for the history entry, default now)")
      .addOption(workspaceOption("workspace to import into"))
      .option(...NO_EVENTS)
      .addOption(dataOption())
      .action((file: string, opts: { workspace: string; events: boolean; data: string }) => {
        const text = readText(file);
        const now = isoTime(Date.now());
        return withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const { readPriceFile } = await import("../src/domain/price-file.ts");
          const result = await allOrNothing(file, async () => store.importPrices(ws.id, readPriceFile(text, now), { now, events: opts.events }));
          io.out(`${result.changed} changed, ${result.unchanged} unchanged (workspace ${ws.slug})\n`);
        });
      }),
    [
      "feedbase import prices week-48.csv",
      "printf 'name,price,inStock,at\\nMaize,231,yes,2026-11-23\\n' > week.csv && feedbase import prices week.csv --workspace north-mill",
    ],
  );

  withExamples(
    group
      .command("nutrients <file>")
      .description("nutrient definitions from CSV (header key,name,unit,basis) or JSON (the export's format): each key defined or replaced")
      .addOption(workspaceOption("workspace to import into"))
      .option("--no-events", "accepted like every import's; definitions fire no events")
      .addOption(dataOption())
      .action((file: string, opts: { workspace: string; data: string }) => {
        const text = readText(file);
        return withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const { readNutrientFile } = await import("../src/domain/nutrient-file.ts");
          const result = await allOrNothing(file, async () => store.importNutrients(ws.id, readNutrientFile(text, formatOf(file, text))));
          io.out(`Imported ${result.added + result.replaced} nutrient definitions into workspace ${ws.slug} (${result.added} new, ${result.replaced} replaced)\n`);
        });
      }),
    ["feedbase import nutrients nutrients.csv", "feedbase export nutrients --workspace north-mill > n.json && feedbase import nutrients n.json --workspace south-mill"],
  );

  withExamples(
    group
      .command("analyses <file>")
      .description("the lab's results: CSV with the columns name,sampledAt,lot,lab and one column per nutrient key (an empty cell: not reported; an empty sampledAt: now)")
      .addOption(workspaceOption("workspace to import into"))
      .option("--no-events", "fire no analysis.added events (a first load)")
      .addOption(dataOption())
      .action((file: string, opts: { workspace: string; events: boolean; data: string }) => {
        const text = readText(file);
        const now = isoTime(Date.now());
        return withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const { readAnalysisFile } = await import("../src/domain/analysis-file.ts");
          const added = await allOrNothing(file, async () => store.importAnalyses(ws.id, readAnalysisFile(text, now), { now, events: opts.events }));
          io.out(`Imported ${added} ${added === 1 ? "analysis" : "analyses"} into workspace ${ws.slug}\n`);
        });
      }),
    ["feedbase import analyses lab-november.csv", "printf 'name,sampledAt,lot,lab,CP,Lys\\nSoybean meal 48%%,2026-11-02,L-7,NIR,46.9,2.88\\n' > lab.csv && feedbase import analyses lab.csv --workspace north-mill"],
  );

  withExamples(
    group
      .command("formulas <file>")
      .description("import formulas from JSON; prices and nutrients come from the ingredient database unless the file gives them")
      .addOption(workspaceOption("workspace to import into"))
      .option("--replace", "overwrite formulas whose id already exists")
      .option(...NO_EVENTS)
      .addOption(dataOption())
      .action(
        (file: string, opts: { workspace: string; replace?: boolean; events: boolean; data: string }) => {
          const text = readText(file);
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const saved = await allOrNothing(file, () => store.importFormulas(ws.id, readFormulaFile(text), { replace: opts.replace === true, now: isoTime(Date.now()), events: opts.events }));
            io.out(`Imported ${saved.length} formula${saved.length === 1 ? "" : "s"} into workspace ${ws.slug}\n`);
            printRows(io, saved, [["ID", (f) => f.id], ["NAME", (f) => f.name], ["TOTAL COST", (f) => f.totalCost.toFixed(2)]], false);
            warnUnmetLimits(io, saved);
          });
        },
      ),
    ["feedbase import formulas formulas.json", "feedbase import formulas corrected.json --replace --workspace north-mill"],
  );
}
