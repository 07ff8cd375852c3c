import type { Command } from "commander";
import { violationText } from "../src/domain/violations.ts";
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { checkConstraints } from "../src/domain/formula-math.ts";
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
  for (const f of saved) {
    const missed = checkConstraints(f).map(violationText);
    if (missed.length > 0) io.err(`warning: ${f.id} does not meet its constraints: ${missed.join(", ")}\n`);
  }
}

/** `feedbase import ingredients|formulas`: validate the whole file, then write it in one short transaction. */
export function registerImport(program: Command, io: Io): void {
  const group = program.command("import").description("import ingredients (CSV or JSON) or formulas (JSON): all or nothing, no webhook events");

  withExamples(
    group
      .command("ingredients <file>")
      .description("import ingredients from CSV (header name,category,price,inStock,<nutrient key>...) or JSON (the export's format)")
      .addOption(workspaceOption("workspace to import into"))
      .option("--update", "replace category, price, inStock and all nutrients of names that already exist (no price.updated events)")
      .addOption(dataOption())
      .action(
        (file: string, opts: { workspace: string; update?: boolean; data: string }) => {
          const text = readText(file);
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const result = await allOrNothing(file, () =>
              store.importIngredients(ws.id, text, formatOf(file, text), {
                update: opts.update === true,
                now: isoTime(Date.now()),
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
      "printf 'name,category,price,inStock,CP\\nMaize,Cereals,228,yes,8.5\\n' > maize.csv && feedbase import ingredients maize.csv",
    ],
  );

  withExamples(
    group
      .command("formulas <file>")
      .description("import formulas from JSON; prices and nutrients come from the ingredient database unless the file gives them")
      .addOption(workspaceOption("workspace to import into"))
      .option("--replace", "overwrite formulas whose id already exists")
      .addOption(dataOption())
      .action(
        (file: string, opts: { workspace: string; replace?: boolean; data: string }) => {
          const text = readText(file);
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const saved = await allOrNothing(file, () => store.importFormulas(ws.id, readFormulaFile(text), { replace: opts.replace === true, now: isoTime(Date.now()) }));
            io.out(`Imported ${saved.length} formula${saved.length === 1 ? "" : "s"} into workspace ${ws.slug}\n`);
            printRows(io, saved, [["ID", (f) => f.id], ["NAME", (f) => f.name], ["TOTAL COST", (f) => f.totalCost.toFixed(2)]], false);
            warnUnmetLimits(io, saved);
          });
        },
      ),
    ["feedbase import formulas formulas.json", "feedbase import formulas corrected.json --replace --workspace north-mill"],
  );
}
