import type { Command } from "commander";
import { VERSION } from "../src/version.ts";

/** `feedbase version`: needs no data file. */
export function registerVersion(program: Command): void {
  program
    .command("version")
    .description("print the version")
    .action(() => {
      process.stdout.write(VERSION + "\n");
    });
}
