import type { Command } from "commander";
import { openApiDocument } from "../src/http/openapi.ts";
import { routes } from "../src/http/routes/index.ts";
import { withExamples } from "./common.ts";
import type { Io } from "./io.ts";

/** `feedbase openapi`: the same document as GET /v1/openapi.json; needs no data file. */
export function registerOpenApi(program: Command, io: Io): void {
  withExamples(
    program
      .command("openapi")
      .description("print the OpenAPI 3.1 document of the v1 API")
      .action(() => {
        io.out(JSON.stringify(openApiDocument(routes), null, 2) + "\n");
      }),
    ["feedbase openapi > feedbase-openapi.json"],
  );
}
