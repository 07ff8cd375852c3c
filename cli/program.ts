import { Command, CommanderError, InvalidArgumentError } from "commander";
import { VERSION } from "../src/version.ts";
import { reportFailure } from "./failure.ts";
import { addDatabaseOption } from "./location.ts";
import { addOwnerOption } from "./owner.ts";
import type { Io } from "./io.ts";

type Register = (program: Command, io: Io) => void;

/**
 * Every command group, in the order `feedbase --help` lists them, each loaded only when needed: a
 * command line loads its own group alone, so `feedbase version` does not load the HTTP service, zod
 * or the solver, and `serve` does not load the admin commands.
 */
const GROUPS: Record<string, () => Promise<Register>> = {
  serve: async () => (await import("./serve.ts")).registerServe,
  workspace: async () => (await import("./workspace.ts")).registerWorkspace,
  key: async () => (await import("./key.ts")).registerKey,
  webhook: async () => (await import("./webhook.ts")).registerWebhook,
  demo: async () => (await import("./demo.ts")).registerDemo,
  import: async () => (await import("./import.ts")).registerImport,
  export: async () => (await import("./export.ts")).registerExport,
  ingredient: async () => (await import("./ingredient.ts")).registerIngredient,
  formula: async () => (await import("./formula.ts")).registerFormula,
  nutrient: async () => (await import("./nutrient.ts")).registerNutrient,
  analysis: async () => (await import("./analysis.ts")).registerAnalysis,
  plan: async () => (await import("./plan.ts")).registerPlan,
  price: async () => (await import("./price.ts")).registerPrice,
  report: async () => (await import("./report.ts")).registerReport,
  backup: async () => (await import("./backup.ts")).registerBackup,
  restore: async () => (await import("./restore.ts")).registerRestore,
  "copy-to": async () => (await import("./copy-to.ts")).registerCopyTo,
  openapi: async () => (await import("./openapi.ts")).registerOpenApi,
  receive: async () => (await import("./receive.ts")).registerReceive,
  version: async () => (await import("./version.ts")).registerVersion,
};

/**
 * The `feedbase` program with the groups `argv` needs: the one it names, or all of them (help, an
 * unknown command, no command), so help and commander's suggestions see every command.
 * @example const program = await buildProgram(processIo); await program.parseAsync(["key", "list"], { from: "user" })
 */
export async function buildProgram(io: Io, argv: readonly string[] = []): Promise<Command> {
  const program = new Command("feedbase")
    .description("feedbase: the feed mill's ingredient database, formulas, v1 HTTP API and signed webhooks")
    .version(VERSION, "-V, --version", "print the version (as `feedbase version`)")
    .showHelpAfterError("(run with --help for usage)")
    // Program options (--version) come before the command, so a group may have subcommands with their own options.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(text) });
  const named = argv[0] !== undefined && Object.hasOwn(GROUPS, argv[0]) ? [argv[0]] : Object.keys(GROUPS);
  for (const register of await Promise.all(named.map((name) => GROUPS[name]!()))) register(program, io);
  addOwnerOption(program);
  addDatabaseOption(program, (line) => io.err(line + "\n"));
  // Every subcommand exits like the program: asked-for help is 0, any usage error 2.
  const exitOverride = (cmd: Command) => {
    cmd.exitOverride();
    cmd.commands.forEach(exitOverride);
  };
  exitOverride(program);
  return program;
}

/**
 * Run one command line (the arguments after `feedbase`) and return its exit code: commander's own
 * errors (unknown option, missing argument) are usage errors, 2; help asked for (`--help`, `help
 * <command>`) and `--version` are 0; a group named without its subcommand (`feedbase`, `feedbase key`)
 * prints its help on stderr and is 2: it did nothing. A command's failure is one line on stderr
 * (`reportFailure`). `serve` and `receive` return 0 once listening and keep the process alive.
 * @example const code = await main(["key", "list", "--json"], io)
 */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    await (await buildProgram(io, argv)).parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // commander has printed its own errors already; an InvalidArgumentError out of an action is ours.
    if (error instanceof CommanderError && !(error instanceof InvalidArgumentError)) return error.exitCode === 0 ? 0 : 2;
    return reportFailure(error, io);
  }
}
