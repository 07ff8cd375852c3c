import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { NotFoundError, ValidationError } from "../src/domain/errors.ts";
import { parseFormulaFile } from "../src/domain/formula-file.ts";
import { checkPlanReferences, parsePlanBody } from "../src/domain/plan-rules.ts";
import { isoTime } from "../src/domain/time.ts";
import type { CandidateSet } from "../src/optimize/candidates.ts";
import { planInput } from "../src/optimize/plan-input.ts";
import { solveInProcess } from "../src/optimize/tasks.ts";
import type { AdminStore } from "../src/admin/ops.ts";
import { PLAN_ID, type PlanResult } from "../src/schemas/plans.ts";
import { dataOption, jsonOption, printDocument, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import { CliFailure } from "./failure.ts";
import { maxCo2eOption } from "./formula-optimize.ts";
import { candidatesOption } from "./what-if.ts";
import type { Io } from "./io.ts";

interface Base {
  workspace: string;
  data: string;
  json?: boolean;
}

const exists = async (probe: () => unknown) => {
  try {
    await probe();
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
};

/** `feedbase plan`: production plans (docs/plans.md). */
export function registerPlan(program: Command, io: Io): void {
  const group = program.command("plan").description("production plans: many formulas, one shared stock (import, list, show, optimize, delete)");

  withExamples(
    group
      .command("import <file>")
      .description("store the plans of a JSON file: an array of {id, name, lines: [{formula, tons}], supply: [{name, minTons, maxTons}]}")
      .option("--replace", "replace plans whose id exists (by default the whole file is refused)")
      .option("--no-events", "fire no plan.updated events (a first load)")
      .addOption(workspaceOption("workspace to import into"))
      .addOption(dataOption())
      .action((file: string, opts: Base & { replace?: boolean; events: boolean }) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          let items: unknown;
          try {
            items = JSON.parse(readFileSync(file, "utf8"));
          } catch (error) {
            throw new CliFailure(`Cannot read ${file}: ${(error as Error).message}`);
          }
          if (!Array.isArray(items) || items.length === 0) throw new ValidationError("a plans file is one JSON array of plan objects");
          const plans = [];
          for (const [i, item] of items.entries()) {
            const id = (item as { id?: unknown })?.id;
            const at = `plan ${i + 1}${typeof id === "string" ? ` (${id})` : ""}: `;
            try {
              if (typeof id !== "string" || !PLAN_ID.test(id)) throw new ValidationError("id must be 1 to 64 of A-Z a-z 0-9 _ . -");
              const body = parsePlanBody(item, ["id"]);
              await checkPlanReferences(body, (f) => exists(() => store.requireFormula(ws, f)), async (n) => (await store.findIngredient(ws, n)) !== null);
              if (!opts.replace && (await exists(() => store.requirePlan(ws, id)))) throw new ValidationError(`Plan already exists: ${id} (use --replace)`);
              plans.push({ id, body });
            } catch (error) {
              if (error instanceof ValidationError) throw new ValidationError(at + error.message);
              throw error;
            }
          }
          await store.importPlans({ workspaceId: ws, keyId: null, now: isoTime(Date.now()) }, plans, opts.events);
          io.out(`Imported ${plans.length} plan${plans.length === 1 ? "" : "s"}\n`);
        }),
      ),
    ["feedbase plan import december.json", "feedbase plan import december.json --replace --workspace north-mill", "feedbase plan import year.json --no-events"],
  );

  withExamples(
    group
      .command("list")
      .description("the plans, newest change first")
      .addOption(jsonOption())
      .addOption(workspaceOption("workspace holding the plans"))
      .addOption(dataOption())
      .action((opts: Base) =>
        withData(opts, async ({ store, workspace }) => {
          const plans = await store.listPlans((await workspace()).id);
          printRows(io, plans, [
            ["ID", (p) => p.id],
            ["NAME", (p) => p.name],
            ["FORMULAS", (p) => String(p.formulas)],
            ["TONS", (p) => p.totalTons.toFixed(3)],
            ["UPDATED", (p) => p.updatedAt],
          ], opts.json);
        }),
      ),
    ["feedbase plan list", "feedbase plan list --json"],
  );

  withExamples(
    group
      .command("show <id>")
      .description("one plan: its lines (formula, tons) and supply rows (min and max tons)")
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(workspaceOption("workspace holding the plan"))
      .addOption(dataOption())
      .action((id: string, opts: Base) =>
        withData(opts, async ({ store, workspace }) => {
          const plan = await store.requirePlan((await workspace()).id, id);
          if (opts.json) return printDocument(io, plan);
          io.out(`${plan.id}: ${plan.name}, updated ${plan.updatedAt}\n\nLines:\n`);
          printRows(io, plan.lines, [["FORMULA", (l) => l.formula], ["TONS", (l) => String(l.tons)]], false);
          io.out("\nSupply (an ingredient without a row is unlimited):\n");
          printRows(io, plan.supply, [["INGREDIENT", (s) => s.name], ["MIN TONS", (s) => (s.minTons === null ? "-" : String(s.minTons))], ["MAX TONS", (s) => (s.maxTons === null ? "-" : String(s.maxTons))]], false);
        }),
      ),
    ["feedbase plan show december"],
  );

  withExamples(
    group
      .command("optimize <id>")
      .description("optimize every formula of the plan together under its supply: mixes, usage against supply, shadow prices, the cost of sharing")
      .addOption(jsonOption("print the API's data as one JSON document"))
      .option("--save-suffix <suffix>", "save each optimized mix as a new formula <formula id><suffix> named '<formula name> (<plan name>)'; refused as a whole if any exists or the plan is infeasible")
      .addOption(candidatesOption())
      .option("--max-co2e <kg>", "cap the plan's average footprint, kg CO2e per tonne of feed (ingredients of unknown co2e are then held at 0)", maxCo2eOption)
      .addOption(workspaceOption("workspace holding the plan"))
      .addOption(dataOption())
      .action((id: string, opts: Base & { saveSuffix?: string; candidates: CandidateSet; maxCo2e?: number }) =>
        withData(opts, async ({ store, workspace }) => {
          const ws = (await workspace()).id;
          const plan = await store.requirePlan(ws, id);
          const result = await solveInProcess("plan", await planInput(plan, (f) => store.requireFormula(ws, f), await store.listIngredientDetails(ws), [], { includeOutOfStock: false, candidates: opts.candidates, maxCo2e: opts.maxCo2e ?? null }));
          if (opts.json) printDocument(io, result);
          else printPlan(io, result);
          if (opts.saveSuffix !== undefined) await saveMixes(io, store, ws, result, opts.saveSuffix, opts.json === true);
        }),
      ),
    ["feedbase plan optimize december", "feedbase plan optimize december --json", "feedbase plan optimize december --save-suffix -dec", "feedbase plan optimize december --candidates all --max-co2e 550"],
  );

  withExamples(
    group
      .command("delete <id>")
      .description("delete a plan (fires no event)")
      .addOption(workspaceOption("workspace holding the plan"))
      .addOption(dataOption())
      .action((id: string, opts: Base) =>
        withData(opts, async ({ store, workspace }) => {
          await store.deletePlan((await workspace()).id, id);
          io.out(`Deleted plan ${id}\n`);
        }),
      ),
    ["feedbase plan delete december"],
  );
}

async function saveMixes(io: Io, store: AdminStore, ws: number, result: PlanResult, suffix: string, json: boolean): Promise<void> {
  if (result.status !== "optimal") throw new CliFailure(`${result.id} is infeasible: nothing to save (relax the limits or supply the report names)`);
  const files = [];
  for (const f of result.formulas) {
    const newId = `${f.id}${suffix}`;
    if (!PLAN_ID.test(newId)) throw new CliFailure(`--save-suffix makes the id ${newId}, which is not 1 to 64 of A-Z a-z 0-9 _ . -`);
    if (await exists(() => store.requireFormula(ws, newId))) throw new CliFailure(`Formula already exists: ${newId} (nothing saved)`);
    const saved = await store.requireFormula(ws, f.id);
    files.push({ id: newId, name: `${saved.name} (${result.name})`, species: saved.species, subcategory: saved.subcategory, batchSize: saved.batchSize, ingredients: f.ingredients.map((i) => ({ name: i.name, percent: i.percent })), constraints: saved.constraints });
  }
  const written = await store.importFormulas(ws, parseFormulaFile(files), { replace: false, now: isoTime(Date.now()) });
  (json ? io.err : io.out)(`Saved ${written.length} formulas: ${written.map((w) => w.id).join(", ")}\n`);
}

function printPlan(io: Io, r: PlanResult): void {
  io.out(`${r.id}: ${r.name}, ${r.totalTons} t: ${r.status}\n`);
  if (r.status === "infeasible") {
    io.out("No plan meets every limit and supply. Each of these, moved alone to the value shown, makes it feasible:\n");
    printRows(io, r.conflicts, [
      ["FORMULA", (c) => c.formula ?? "-"],
      ["LIMIT", (c) => (c.kind === "supply" ? `${c.name} (supply, t)` : c.kind === "nutrient" ? c.key! : c.kind === "ingredient" ? `${c.name} (inclusion %)` : c.kind === "ratio" ? `${c.numerator}:${c.denominator}` : c.kind)],
      ["BOUND", (c) => c.bound],
      ["LIMIT VALUE", (c) => String(c.limit)],
      ["MOVE TO", (c) => (c.bestAchievable === null ? "-" : String(c.bestAchievable))],
    ], false);
    return;
  }
  io.out(`Cost ${r.cost!.toFixed(2)}; each formula alone ${r.independentCost!.toFixed(2)}; sharing the supply costs ${r.sharingCost!.toFixed(2)}\n`);
  io.out(`Footprint ${r.co2ePerTon === null ? "unknown (an ingredient used has no co2e)" : `${r.co2ePerTon.toFixed(1)} kg CO2e per tonne`}${r.co2e ? `; the cap of ${r.co2e.limit} binds: ${r.co2e.perTonneCo2e.toFixed(2)} per tonne of CO2e abated` : ""}\n\n`);
  printRows(io, r.formulas, [
    ["FORMULA", (f) => f.id],
    ["TONS", (f) => String(f.tons)],
    ["COST/T", (f) => f.costPerTon!.toFixed(2)],
    ["ALONE COST/T", (f) => (f.independentCostPerTon === null ? "-" : f.independentCostPerTon.toFixed(2))],
  ], false);
  io.out("\nUsage against supply (shadow price: change of the plan's cost per one more ton of the binding bound):\n");
  printRows(io, r.usage, [
    ["INGREDIENT", (u) => u.name],
    ["TONS USED", (u) => u.tons.toFixed(3)],
    ["MIN TONS", (u) => (u.minTons === null ? "-" : String(u.minTons))],
    ["MAX TONS", (u) => (u.maxTons === null ? "-" : String(u.maxTons))],
    ["BINDS", (u) => u.bound ?? "-"],
    ["SHADOW PRICE/T", (u) => (u.shadowPrice === null ? "-" : u.shadowPrice.toFixed(2))],
  ], false);
  for (const f of r.formulas) {
    io.out(`\n${f.id} (${f.name}), ${f.tons} t:\n`);
    printRows(io, f.ingredients, [["INGREDIENT", (i) => i.name], ["PERCENT", (i) => i.percent.toFixed(4)], ["TONS", (i) => i.tons.toFixed(3)]], false);
  }
}
