import { InvalidArgumentError, type Command } from "commander";
import type { CandidateSet } from "../src/optimize/candidates.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import { isoTime } from "../src/domain/time.ts";
import { optimizeInput } from "../src/optimize/optimize-task.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import { parsePrice } from "../src/optimize/what-if.ts";
import { FORMULA_ID } from "../src/schemas/formulas.ts";
import { maxCo2eParameter, type ConfidenceResult, type OptimizeResult } from "../src/schemas/optimize.ts";
import { sinceOrDefault } from "../src/schemas/confidence.ts";
import { printOdds, probabilityOption, SINCE_HELP, sinceOption } from "./confidence-report.ts";
import type { FormulaConstraints } from "../src/domain/formula-math.ts";
import type { NutrientListing } from "../src/domain/nutrients.ts";
import { printLimits } from "./limits-table.ts";
import { dataOption, printDocument, printRows, signed, withExamples, withData, workspaceOption, jsonOption } from "./common.ts";
import { CliFailure } from "./failure.ts";
import type { Io } from "./io.ts";
import { warnUnmetLimits } from "./import.ts";
import { candidatesOption, formulaToSolve } from "./what-if.ts";

interface Options {
  include?: string;
  candidates: CandidateSet;
  price: Map<string, number>;
  includeOutOfStock?: boolean;
  maxCo2e?: number;
  confidence?: number;
  analysesSince?: string;
  json?: boolean;
  saveAs?: string;
  id?: string;
  workspace: string;
  data: string;
}

/** `--price NAME=VALUE`, repeatable: split at the last `=`, as the API's `price` parameter. */
export function collectPrice(value: string, prices: Map<string, number>): Map<string, number> {
  try {
    const { name, price } = parsePrice(value);
    return new Map(prices).set(name, price);
  } catch (error) {
    throw new InvalidArgumentError(`--${(error as Error).message}`);
  }
}

/** `--max-co2e`, read by the API's own rule (a number within ±10^6 kg CO2e per tonne). */
export const maxCo2eOption = (value: string): number => {
  const parsed = maxCo2eParameter.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`--${parsed.error.issues[0]!.message}`);
  return parsed.data!;
};

const formulaIdOption = (value: string) => {
  if (!FORMULA_ID.test(value)) throw new InvalidArgumentError("--id must be 1 to 64 of A-Z a-z 0-9 _ . -");
  return value;
};

/** `feedbase formula optimize`: the data of GET /v1/formulas/:id/optimize as a report, and --save-as to keep the mix. */
export function registerFormulaOptimize(group: Command, io: Io): void {
  withExamples(
    group
      .command("optimize <id>")
      .description("the least-cost mix that meets the formula's limits at today's prices and stock: old → new composition, saving, binding limits with shadow prices, price ranges")
      .option("--include <names>", "extra candidate ingredients, comma-separated")
      .option("--price <NAME=VALUE>", "a what-if price per ton (repeatable; never stored)", collectPrice, new Map<string, number>())
      .option("--include-out-of-stock", "let out-of-stock candidates into the mix (by default they are held at 0)")
      .addOption(candidatesOption())
      .option("--max-co2e <kg>", "cap the mix's footprint at this many kg CO2e per tonne of feed (candidates of unknown co2e are then held at 0)", maxCo2eOption)
      .option("--confidence <p>", "meet every nutrient limit with at least this probability (0.5 to 0.999), ingredients varying as their lab analyses do: prints the odds, the premium and the blanket margin's cost", probabilityOption("confidence"))
      .option("--analyses-since <date>", SINCE_HELP, sinceOption)
      .addOption(jsonOption("print the API's data as one JSON document"))
      .option("--save-as <name>", "save the optimized mix as a new formula with this name (same species, subcategory, batch size and limits)")
      .option("--id <id>", "id of the formula --save-as creates (default: a generated frm_ id)", formulaIdOption)
      .addOption(workspaceOption("workspace holding the formula"))
      .addOption(dataOption())
      .action(
        async (id: string, opts: Options) => {
          if (opts.id !== undefined && opts.saveAs === undefined) throw new InvalidArgumentError("--id needs --save-as");
          return withData(opts, async ({ store, workspace }) => {
            const ws = (await workspace()).id;
            const { formula, lookup, options } = await formulaToSolve(store, ws, id, opts);
            const input = optimizeInput(formula, lookup, options);
            const confidence = opts.confidence;
            const result: OptimizeResult | ConfidenceResult =
              confidence === undefined
                ? await solveInProcess("optimize", input)
                : await solveInProcess("confidence", { ...input, confidence, sds: await store.variability(ws, input.ingredients.map((i) => i.name), sinceOrDefault(opts.analysesSince, Date.now())) });
            if (opts.json) printDocument(io, result);
            else {
              const definitions = new Map((await store.listNutrients(ws)).map((d) => [d.key, d]));
              printReport(io, result, formula.constraints, definitions);
              if ("confidence" in result) printOdds(io, result, definitions);
            }
            if (opts.saveAs === undefined) return;
            if (result.optimized === null) throw new CliFailure(`${id} is infeasible: nothing to save (relax the limits the report names)`);
            const [file] = parseFormulaFile([
              {
                ...(opts.id !== undefined ? { id: opts.id } : {}),
                name: opts.saveAs,
                species: formula.species,
                subcategory: formula.subcategory,
                batchSize: formula.batchSize,
                ingredients: result.optimized.ingredients.filter((i) => i.percent > 0).map((i) => ({ name: i.name, percent: i.percent, price: i.price })),
                constraints: formula.constraints,
              },
            ]);
            const [saved] = await store.importFormulas(ws, [file!], { replace: false, now: isoTime(Date.now()), events: true });
            (opts.json ? io.err : io.out)(`Saved the optimized mix as formula ${saved!.id} (${saved!.name}), total cost ${saved!.totalCost.toFixed(2)}\n`);
            warnUnmetLimits(io, [saved!]);
          });
        },
      ),
    [
      "feedbase formula optimize broiler-starter",
      "feedbase formula optimize broiler-starter --include Wheat,Barley --price 'Soybean meal 48%=455'",
      "feedbase formula optimize layer-phase-1 --include-out-of-stock --json",
      "feedbase formula optimize swine-grower --candidates all",
      "feedbase formula optimize broiler-starter --max-co2e 550 --include 'Soybean meal 48% US'",
      "feedbase formula optimize broiler-starter --save-as 'Broiler starter (Nov)' --id broiler-starter-nov",
      "feedbase formula optimize layer-phase-1 --confidence 0.95",
    ],
  );
}

/** The columns of a conflict table (the optimization's and the frontier's); `alone`: single-limit repairs. */
export const conflictRows = (alone: boolean): [string, (c: OptimizeResult["conflicts"][number]) => string][] => [
  ["LIMIT", (c) => (c.kind === "ratio" ? `${c.numerator}:${c.denominator}` : c.kind === "nutrient" ? c.key! : c.kind === "co2e" ? "CO2e (kg per tonne)" : `${c.name} (inclusion %)`)],
  ["BOUND", (c) => c.bound],
  ["LIMIT VALUE", (c) => String(c.limit)],
  [alone ? "MOVE TO" : "BEST ACHIEVABLE", (c) => (c.bestAchievable === null ? "-" : String(c.bestAchievable))],
];

const fixed = (v: number | null, d = 2) => (v === null ? "-" : v.toFixed(d));

/** The readable report: what a nutritionist scans first, then how firm the answer is. */
function printReport(io: Io, r: OptimizeResult | ConfidenceResult, constraints: FormulaConstraints, definitions: ReadonlyMap<string, NutrientListing>): void {
  const out = (text: string) => io.out(text);
  out(`${r.id}: ${r.name}, batch of ${r.batchSize} kg: ${r.status}\n`);
  if (r.optimized === null) {
    const alone = r.conflicts.some((c) => c.alone);
    out(`No mix of the candidates meets every limit. Cost of the saved mix now: ${r.current.cost.toFixed(2)}\n`);
    out(alone ? "Each of these limits, moved alone to the value shown (every other limit kept), makes the formula feasible; the smallest move first:\n" : "No single limit suffices: relax these together (the value the closest mix reaches):\n");
    printRows(io, r.conflicts, conflictRows(alone), false);
    return;
  }
  const s = r.saving!;
  out(`Cost per batch ${r.current.cost.toFixed(2)} → ${r.optimized.cost.toFixed(2)}: saving ${signed(s.perBatch)} (${signed(s.perTon)} per ton${s.percent === null ? "" : `, ${signed(s.percent)}%`})\n`);
  const footprint = (v: number | null) => (v === null ? "unknown" : v.toFixed(1));
  out(`Footprint ${footprint(r.current.co2ePerTon)} → ${footprint(r.optimized.co2ePerTon)} kg CO2e per tonne of feed\n\n`);
  const names = [...new Set([...r.current.ingredients.map((i) => i.name), ...r.optimized.ingredients.map((i) => i.name)])];
  const before = new Map(r.current.ingredients.map((i) => [i.name, i]));
  const after = new Map(r.optimized.ingredients.map((i) => [i.name, i]));
  printRows(io,
    names.map((name) => ({ name, old: before.get(name)?.percent ?? 0, now: after.get(name)?.percent ?? 0, price: after.get(name)?.price ?? before.get(name)!.price })),
    [
      ["INGREDIENT", (x) => x.name],
      ["SAVED %", (x) => String(x.old)],
      ["OPTIMIZED %", (x) => String(x.now)],
      ["CHANGE", (x) => signed(x.now - x.old, 4)],
      ["PRICE/T", (x) => x.price.toFixed(2)],
    ],
    false,
  );
  out("\nNutrients of the optimized mix against the limits:\n");
  printLimits(io, { ingredients: r.optimized.ingredients, nutrients: r.optimized.nutrients, constraints }, definitions);
  const binding = [
    ...r.shadowPrices.nutrients.map((b) => ({ ...b, label: b.key })),
    ...r.shadowPrices.ingredients.map((b) => ({ ...b, label: `${b.name} (inclusion %)` })),
    ...r.shadowPrices.ratios.map((b) => ({ ...b, label: `${b.numerator}:${b.denominator}` })),
  ];
  out("\nBinding limits (shadow price: change of the cost per ton for one unit more of the limit):\n");
  printRows(io,
    binding,
    [
      ["LIMIT", (b) => b.label],
      ["BOUND", (b) => b.bound],
      ["VALUE", (b) => String(b.limit)],
      ["SHADOW PRICE", (b) => signed(b.shadowPrice, 4)],
      ["VALID FROM", (b) => fixed(b.validFrom ?? null)],
      ["VALID TO", (b) => fixed(b.validTo ?? null)],
    ],
    false,
  );
  const cap = r.shadowPrices.co2e;
  if (cap) {
    out(
      `\nThe CO2e cap of ${cap.limit} kg per tonne of feed binds: 1 kg per tonne more allowed changes the cost per tonne by ${signed(cap.shadowPrice, 6)}; ` +
        `each tonne of CO2e abated at this cap costs ${cap.perTonneCo2e.toFixed(2)}.\n`,
    );
  }
  if (r.ranging === undefined) {
    out("\nPrice ranging and entering prices are left out above confidence 0.5 (the optimum sits on curved limits, where any price change moves it).\n");
    return;
  }
  out("\nPrice ranging (the mix stays optimal while the price per ton stays in the range; - = no limit):\n");
  printRows(io,
    r.ranging,
    [
      ["INGREDIENT", (g) => g.name],
      ["PERCENT", (g) => String(g.percent)],
      ["PRICE", (g) => g.price.toFixed(2)],
      ["LOW", (g) => fixed(g.priceLow)],
      ["HIGH", (g) => fixed(g.priceHigh)],
    ],
    false,
  );
  out("\nCandidates left out (they would enter below this price; - = never):\n");
  printRows(io,
    r.excluded,
    [
      ["INGREDIENT", (e) => e.name],
      ["PRICE", (e) => e.price.toFixed(2)],
      ["ENTERS BELOW", (e) => (e.reason === "co2e unknown" ? "- (co2e unknown: held at 0)" : fixed(e.entersBelow ?? null))],
    ],
    false,
  );
}
