import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./helpers/harness.ts";

/** Every TypeScript file of the program (src/ and cli/). */
const files = [...new Bun.Glob("{src,cli}/**/*.ts").scanSync({ cwd: ROOT })].map((f) => join(ROOT, f));

/** The project files a file imports (`import`, `import type`, `export … from`, `import()`), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)/g)].map((m) => m[1] ?? m[2]!);
  return specifiers.filter((s) => s.endsWith(".ts")).map((s) => resolve(dirname(file), s));
}

/** Each import cycle once, as the files along it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(path.slice(path.indexOf(next)).map((f) => relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("structure", () => {
  test("no import loop among src/ and cli/, type-only imports included", () => {
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect([...graph.values()].flat().length).toBeGreaterThan(200);
    expect(cycles(graph)).toEqual([]);
  });

  test("the cycle finder finds a loop", () => {
    expect(cycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"].map((f) => relative(ROOT, f))]);
  });

  test("layers: nothing in src/store/ imports src/admin/ or src/demo/, and src/domain/ imports nothing of src/store/", () => {
    // Storage is below the admin commands and the demo (they use it, never the other way), and the
    // domain's pure rules know no storage at all, type-only imports included.
    const RULES: [from: string, to: readonly string[]][] = [
      ["src/store/", ["src/admin/", "src/demo/"]],
      ["src/domain/", ["src/store/"]],
    ];
    const upward: string[] = [];
    for (const file of files) {
      const from = relative(ROOT, file);
      for (const [layer, above] of RULES) {
        if (!from.startsWith(layer)) continue;
        for (const target of importsOf(file).map((t) => relative(ROOT, t))) if (above.some((a) => target.startsWith(a))) upward.push(`${from} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test("layers in src/store/: a dialect's statements import no operation, and the store imports nothing above it", () => {
    // An operation is written once over its statements (docs/decisions.md#store-operations-written-once):
    // the modules in src/store/pg/ and src/store/sqlite/ may take from src/store/ only what statements are
    // typed and shaped by (op.ts, *-rows.ts, *-rules.ts) and the connection's own modules, never a
    // module that runs operations. And storage knows only the pure layers below it: no logger, limiter,
    // HTTP or webhook module, type-only imports included.
    const SHARED_WITH_DIALECTS = /^src\/store\/(op|db|migrations|copied-tables|[a-z-]+-rows|[a-z-]+-rules)\.ts$/;
    const BELOW_STORE = ["src/store/", "src/domain/", "src/schemas/"];
    const wrong: string[] = [];
    for (const file of files) {
      const from = relative(ROOT, file);
      if (!from.startsWith("src/store/")) continue;
      const dialect = /^src\/store\/(pg|sqlite)\//.test(from);
      for (const target of importsOf(file).map((t) => relative(ROOT, t))) {
        const above = !BELOW_STORE.some((layer) => target.startsWith(layer));
        const operations = dialect && /^src\/store\/[^/]+\.ts$/.test(target) && !SHARED_WITH_DIALECTS.test(target);
        if (above || operations) wrong.push(`${from} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("no file in src/ is over 300 lines", () => {
    const long = files
      .filter((f) => relative(ROOT, f).startsWith("src/"))
      .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, "utf8").split("\n").length }))
      .filter((f) => f.lines > 300);
    expect(long).toEqual([]);
  });
});
