import type { Command } from "commander";
import { VERSION } from "../src/version.ts";
import { withExamples } from "./common.ts";
import type { Io } from "./io.ts";

/** `feedbase version`: needs no data file. */
export function registerVersion(program: Command, io: Io): void {
  withExamples(
    program
      .command("version")
      .description("print the version (major.minor.patch), as GET /v1/health reports it")
      .action(() => {
        io.out(VERSION + "\n");
      }),
    ["feedbase version"],
  );
}
