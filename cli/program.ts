import { Command, CommanderError, InvalidArgumentError } from "commander";
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
import { addOwnerOption, reportFailure } from "./common.ts";
import type { Io } from "./io.ts";

/**
 * The `feedbase` program: one file per command group registers itself here.
 * @example await buildProgram(processIo).parseAsync(["key", "list"], { from: "user" })
 */
export function buildProgram(io: Io): Command {
  const program = new Command("feedbase")
    .description("feedbase: the feed mill's ingredient database, formulas, v1 HTTP API and signed webhooks")
    .version(VERSION, "-V, --version", "print the version (as `feedbase version`)")
    .showHelpAfterError("(run with --help for usage)")
    // Program options (--version) come before the command, so a group may have subcommands with their own options.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(text) });
  // One line per command group, in the order `feedbase --help` lists them.
  registerServe(program, io);
  registerWorkspace(program, io);
  registerKey(program, io);
  registerWebhook(program, io);
  registerDemo(program, io);
  registerImport(program, io);
  registerExport(program, io);
  registerIngredient(program, io);
  registerFormula(program, io);
  registerPrice(program, io);
  registerReport(program, io);
  registerBackup(program, io);
  registerRestore(program, io);
  registerOpenApi(program, io);
  registerReceive(program, io);
  registerVersion(program, io);
  addOwnerOption(program);
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
    await buildProgram(io).parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // commander has printed its own errors already; an InvalidArgumentError out of an action is ours.
    if (error instanceof CommanderError && !(error instanceof InvalidArgumentError)) return error.exitCode === 0 ? 0 : 2;
    return reportFailure(error, io);
  }
}
