import { Option, type Command } from "commander";
import { BASES, type Basis } from "../src/domain/nutrients.ts";
import { nutrientKey } from "../src/domain/nutrient-file.ts";
import { nutrientDefinitionBody } from "../src/schemas/nutrients.ts";
import { firstProblem } from "../src/schemas/problem.ts";
import { dataOption, jsonOption, oneOf, printRows, withData, withExamples, workspaceOption } from "./common.ts";
import { CliFailure } from "./failure.ts";
import type { Io } from "./io.ts";

/** `feedbase nutrient list|set`: the units and bases of nutrient keys (the data of GET and PUT /v1/nutrients). */
export function registerNutrient(program: Command, io: Io): void {
  const group = program.command("nutrient").description("nutrient keys: what each means, its unit and whether values are as fed or on dry matter");

  withExamples(
    group
      .command("list")
      .description("every defined key, and every key ingredients use without a definition (shown as undefined)")
      .addOption(workspaceOption("workspace to list"))
      .addOption(jsonOption("one JSON object per line, as GET /v1/nutrients lists them"))
      .addOption(dataOption())
      .action((opts: { workspace: string; json?: boolean; data: string }) =>
        withData(opts, async ({ store, workspace }) => {
          const rows = await store.listNutrients((await workspace()).id);
          printRows(io, rows, [["KEY", (n) => n.key], ["UNIT", (n) => n.unit ?? "-"], ["BASIS", (n) => n.basis ?? "-"], ["NAME", (n) => n.name ?? "(undefined: feedbase nutrient set)"]], opts.json);
        }),
      ),
    ["feedbase nutrient list", "feedbase nutrient list --workspace north-mill --json"],
  );

  withExamples(
    group
      .command("set <key>")
      .description("define a key or replace its definition")
      .requiredOption("--name <text>", "what the key means, e.g. 'Crude protein'")
      .requiredOption("--unit <unit>", "the unit of its values, e.g. %, kcal/kg, Mcal/kg, mg/kg")
      .addOption(new Option("--basis <basis>", "as-fed or dry-matter").makeOptionMandatory().argParser(oneOf("--basis", [...BASES])))
      .addOption(workspaceOption("workspace to define it in"))
      .addOption(dataOption())
      .action((key: string, opts: { name: string; unit: string; basis: Basis; workspace: string; data: string }) => {
        const parsed = nutrientDefinitionBody.safeParse({ name: opts.name, unit: opts.unit, basis: opts.basis });
        if (!parsed.success) throw new CliFailure(firstProblem(parsed.error.issues, opts));
        const normal = nutrientKey(key, "key");
        return withData(opts, async ({ store, workspace }) => {
          const ws = await workspace();
          const { created } = await store.putNutrient(ws.id, normal, parsed.data);
          io.out(`${created ? "Defined" : "Redefined"} ${normal}: ${parsed.data.name}, ${parsed.data.unit}, ${parsed.data.basis} (workspace ${ws.slug})\n`);
        });
      }),
    ["feedbase nutrient set Zn --name Zinc --unit mg/kg --basis as-fed", "feedbase nutrient set NEL --name 'Net energy for lactation' --unit Mcal/kg --basis dry-matter --workspace dairy"],
  );
}
