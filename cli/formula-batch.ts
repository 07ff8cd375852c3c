import { createHash } from "node:crypto";
import type { Command } from "commander";
import { batchScales } from "../src/optimize/batch-params.ts";
import { csvLine } from "../src/domain/csv.ts";
import { ValidationError } from "../src/domain/errors.ts";
import { batchInput } from "../src/optimize/batch-input.ts";
import type { BatchSheet } from "../src/optimize/batch-sheet.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import type { FormulaConstraints } from "../src/domain/formula-math.ts";
import { dataOption, oneOf, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import { UsageError } from "./failure.ts";
import type { Io } from "./io.ts";

interface Options {
  size?: string;
  resolution?: string;
  microResolution?: string;
  microBelow?: string;
  format: "table" | "csv" | "json";
  workspace: string;
  data: string;
}

/**
 * The checksum a sheet carries so a printed copy can be matched to its amounts: the first 8 hex digits
 * of SHA-256 over the lines `name:kg`, joined by newlines, in the sheet's order.
 * @example sheetChecksum([{ name: "Maize", kg: 1109.5 }]) // "33c13dfa"
 */
export function sheetChecksum(lines: ReadonlyArray<{ name: string; kg: number }>): string {
  return createHash("sha256").update(lines.map((l) => `${l.name}:${l.kg}`).join("\n")).digest("hex").slice(0, 8);
}

/** `feedbase formula batch`: the data of GET /v1/formulas/:id/batch as a mixing sheet. */
export function registerFormulaBatch(group: Command, io: Io): void {
  withExamples(
    group
      .command("batch <id>")
      .description("a mixing sheet for one batch: amounts in whole steps of the scales, summing to the batch and keeping every limit, the cheapest such amounts at today's prices")
      .option("--size <kg>", "the batch, kg (1 to 100000, a whole multiple of --resolution)")
      .option("--resolution <kg>", "step of the macro scale, kg (0.001 to size)")
      .option("--micro-resolution <kg>", "step of the micro scale, kg (with --micro-below)")
      .option("--micro-below <kg>", "a line whose exact amount is below this many kg is weighed on the micro scale")
      .option("--format <format>", "table, csv or json (the API's data with date and checksum)", oneOf("--format", ["table", "csv", "json"] as const), "table")
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(dataOption())
      .action(async (id: string, opts: Options) => {
        let scales;
        try {
          scales = batchScales({ size: opts.size, resolution: opts.resolution, microResolution: opts.microResolution, microBelow: opts.microBelow });
        } catch (error) {
          // The API's words with the option names of this command.
          if (error instanceof ValidationError) throw new UsageError(error.message.replace(/\b(size|resolution|microResolution|microBelow)\b/g, (w) => `--${w.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
          throw error;
        }
        return withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          const formula = await store.requireFormula(ws, id);
          const sheet = await solveInProcess("batchSheet", await batchInput(formula, scales, (name) => store.findIngredient(ws, name)));
          const date = new Date().toISOString().slice(0, 10);
          const checksum = sheetChecksum(sheet.lines);
          if (opts.format === "json") return printDocument(io, { ...sheet, date, checksum });
          if (opts.format === "csv") return printCsv(io, sheet, date, checksum);
          printSheet(io, sheet, formula.constraints, date, checksum);
        });
      }),
    [
      "feedbase formula batch broiler-starter --size 2000 --resolution 0.5",
      "feedbase formula batch broiler-starter --size 2000 --resolution 0.5 --micro-resolution 0.001 --micro-below 20",
      "feedbase formula batch layer-phase-1 --size 3000 --resolution 1 --format csv > sheet.csv",
    ],
  );
}

function printCsv(io: Io, s: BatchSheet, date: string, checksum: string): void {
  const head = ["done", "order", "name", "scale", "step_kg", "kg", "percent", "exact_kg", "deviation_kg", "formula", "size_kg", "date", "checksum"];
  const rows = s.lines.map((l, k) => ["", String(k + 1), l.name, l.scale, String(l.step), l.kg.toFixed(3), l.percent.toFixed(4), l.exactKg.toFixed(3), l.deviationKg.toFixed(3), s.id, String(s.size), date, checksum]);
  io.out([head, ...rows].map((r) => csvLine(r) + "\n").join(""));
}

function printSheet(io: Io, s: BatchSheet, constraints: FormulaConstraints, date: string, checksum: string): void {
  io.out(`Mixing sheet: ${s.id} (${s.name}), batch ${s.size} kg, ${date}, checksum ${checksum}\n`);
  io.out(s.status === "optimal"
    ? `Every limit holds on these amounts. Cost ${s.cost.toFixed(2)} (exact composition ${s.exactCost.toFixed(2)}, rounding ${s.roundingCost >= 0 ? "+" : ""}${s.roundingCost.toFixed(2)})\n\n`
    : `No amounts in these steps meet every limit: the nearest amounts below miss the limits listed after them. Cost ${s.cost.toFixed(2)}\n\n`);
  printRows(io, s.lines.map((l, k) => ({ ...l, order: k + 1 })), [
    ["DONE", () => "[ ]"],
    ["#", (l) => String(l.order)],
    ["INGREDIENT", (l) => l.name],
    ["SCALE", (l) => `${l.scale} (${l.step} kg)`],
    ["KG", (l) => l.kg.toFixed(3)],
    ["PERCENT", (l) => l.percent.toFixed(4)],
    ["EXACT KG", (l) => l.exactKg.toFixed(3)],
    ["DEVIATION KG", (l) => (l.deviationKg > 0 ? "+" : "") + l.deviationKg.toFixed(3)],
  ], false);
  const limited = constraints.nutrients.filter((n) => n.min !== null || n.max !== null);
  if (limited.length > 0) {
    io.out("\nNutrients on these amounts:\n");
    printRows(io, limited, [
      ["NUTRIENT", (n) => n.key],
      ["MIN", (n) => (n.min === null ? "-" : String(n.min))],
      ["MAX", (n) => (n.max === null ? "-" : String(n.max))],
      ["ACHIEVED", (n) => String(s.nutrients[n.key] ?? 0)],
    ], false);
  }
  if (s.conflicts.length > 0) {
    io.out("\nLimits these amounts miss:\n");
    printRows(io, s.conflicts, [
      ["LIMIT", (c) => (c.kind === "ratio" ? `${c.numerator}:${c.denominator}` : c.kind === "nutrient" ? c.key! : `${c.name} (inclusion %)`)],
      ["BOUND", (c) => c.bound],
      ["LIMIT VALUE", (c) => String(c.limit)],
      ["ON THE SHEET", (c) => (c.bestAchievable === null ? "-" : String(c.bestAchievable))],
    ], false);
  }
  io.out("\nWeighed by: ____________   Checked by: ____________\n");
}
