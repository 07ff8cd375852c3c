import type { Command } from "commander";
import { VERSION } from "../src/version.ts";
import { withExamples } from "./common.ts";

/** `feedbase version`: needs no data file. */
export function registerVersion(program: Command): void {
  withExamples(
    program
      .command("version")
      .description("print the version (major.minor.patch), as GET /v1/health reports it")
      .action(() => {
        process.stdout.write(VERSION + "\n");
      }),
    ["feedbase version"],
  );
}
