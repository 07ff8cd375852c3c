#!/usr/bin/env bun
import { processIo } from "./io.ts";
import { main } from "./program.ts";

const code = await main(process.argv.slice(2), processIo);
// A failure exits at once; success leaves the process to end on its own (serve and receive keep it alive).
if (code !== 0) process.exit(code);
