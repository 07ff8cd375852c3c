#!/usr/bin/env bun
import { main } from "./program.ts";

await main(process.argv);
