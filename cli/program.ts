import { Command, CommanderError } from "commander";
import { registerBackup } from "./backup.ts";
import { registerDemo } from "./demo.ts";
import { registerExport } from "./export.ts";
import { registerFormula } from "./formula.ts";
import { registerImport } from "./import.ts";
import { registerIngredient } from "./ingredient.ts";
import { registerKey } from "./key.ts";
import { registerOpenApi } from "./openapi.ts";
import { registerPrice } from "./price.ts";
import { registerReceive } from "./receive.ts";
import { registerReport } from "./report.ts";
import { registerRestore } from "./restore.ts";
import { registerServe } from "./serve.ts";
import { registerVersion } from "./version.ts";
import { registerWebhook } from "./webhook.ts";
import { registerWorkspace } from "./workspace.ts";
import { VERSION } from "../src/version.ts";

/**
 * The `feedbase` program: one file per command group registers itself here.
 * @example await buildProgram().parseAsync(["node", "feedbase", "key", "list"])
 */
export function buildProgram(): Command {
  const program = new Command("feedbase")
    .description("feedbase: the feed mill's ingredient database, formulas, v1 HTTP API and signed webhooks")
    .version(VERSION, "-V, --version", "print the version (as `feedbase version`)")
    .showHelpAfterError("(run with --help for usage)")
    // Program options (--version) come before the command, so a group may have subcommands with their own options.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  // One line per command group, in the order `feedbase --help` lists them.
  registerServe(program);
  registerWorkspace(program);
  registerKey(program);
  registerWebhook(program);
  registerDemo(program);
  registerImport(program);
  registerExport(program);
  registerIngredient(program);
  registerFormula(program);
  registerPrice(program);
  registerReport(program);
  registerBackup(program);
  registerRestore(program);
  registerOpenApi(program);
  registerReceive(program);
  registerVersion(program);
  // Every subcommand exits like the program: asked-for help is 0, any usage error 2.
  const exitOverride = (cmd: Command) => {
    cmd.exitOverride();
    cmd.commands.forEach(exitOverride);
  };
  exitOverride(program);
  return program;
}

/**
 * Parse argv; commander's own errors (unknown option, missing argument) are usage errors: exit 2.
 * Help asked for (`--help`, `help <command>`) and `--version` exit 0; a group named without its
 * subcommand (`feedbase`, `feedbase key`) prints its help on stderr and exits 2: it did nothing.
 */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    throw error;
  }
}
