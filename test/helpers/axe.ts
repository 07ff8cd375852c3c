/**
 * axe-core's WCAG 2 A and AA rules (labels, names, contrast of 4.5:1, ...) on a page, offline: the
 * installed axe.min.js is evaluated through the browser's debugging protocol, as @axe-core/playwright
 * does, which is not an inline script, so the console's CSP stays on while it runs.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Each violation as "scheme rule: selectors", in light and in dark (the colour scheme is emulated). */
export async function axeViolations(page: Page, schemes: readonly ("light" | "dark")[] = ["light", "dark"]): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    if (!(await page.evaluate(`"axe" in window`))) await page.evaluate(AXE);
    // Strings: evaluated in the page, whose DOM this program's (Bun's) types do not describe.
    const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } })
      .then((r) => r.violations.map((v) => v.id + ": " + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")))`)) as string[];
    found.push(...violations.map((v) => `${scheme} ${v}`));
  }
  return found;
}
