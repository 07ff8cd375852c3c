import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** bench/RESULTS.md: written whole by bench/run.ts; the scripts `make bench` runs after it each keep a section of their own. */
export const RESULTS = join(import.meta.dir, "RESULTS.md");

/**
 * RESULTS.md with `section` (its first line the `## ` heading) in place of its previous one, or appended:
 * how the scripts `make bench` runs after bench/run.ts keep their own sections.
 * @example writeFileSync(RESULTS, withSection(readFileSync(RESULTS, "utf8"), ["## Least-cost formulation", "", "..."]))
 */
export function withSection(results: string, section: string[]): string {
  const start = results.indexOf(`\n${section[0]}\n`);
  const text = section.join("\n") + "\n";
  if (start === -1) return results.trimEnd() + "\n\n" + text;
  const next = results.indexOf("\n## ", start + 1);
  return results.slice(0, start + 1) + text + (next === -1 ? "" : results.slice(next));
}

/**
 * Put `section` into bench/RESULTS.md in place of its previous one (or at the end).
 * @example writeSection(renderOptimize(figures))
 */
export function writeSection(section: string[]): void {
  writeFileSync(RESULTS, withSection(readFileSync(RESULTS, "utf8"), section));
}
