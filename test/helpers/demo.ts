/** What the project's demo files hold (test/demo-data.test.ts checks the files themselves). */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const DEMO = join(import.meta.dir, "..", "..", "src", "demo");

/** How many ingredients `feedbase demo` makes. */
export const DEMO_INGREDIENTS = readFileSync(join(DEMO, "ingredients.csv"), "utf8").trim().split("\n").length - 1;
/** How many formulas `feedbase demo` makes. */
export const DEMO_FORMULAS = (JSON.parse(readFileSync(join(DEMO, "formulas.json"), "utf8")) as unknown[]).length;
