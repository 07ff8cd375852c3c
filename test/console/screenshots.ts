/**
 * `make screenshots`: every console page at 1280 and 390 px wide into docs/console/, from the demo
 * served by dist/feedbase in Debian's chromium (light scheme, DejaVu fonts). Each is taken once the
 * page has settled (no placeholder, no solve running), never after a fixed wait.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { closeBrowser, openPage, settled, signIn } from "../helpers/browser.ts";
import { putSharedPlan, startConsoleSite } from "../helpers/console-site.ts";
import { ROOT } from "../helpers/harness.ts";

const OUT = join(ROOT, "docs", "console");
const PAGES: { file: string; path: string; then?: (page: import("playwright-core").Page) => Promise<void> }[] = [
  { file: "prices", path: "/console/" },
  { file: "ingredient", path: `/console/ingredients/${encodeURIComponent("Soybean meal 48%")}` },
  { file: "formulas", path: "/console/formulas" },
  { file: "formula", path: "/console/formulas/broiler-starter" },
  { file: "formula-edit", path: "/console/formulas/broiler-starter", then: (page) => page.getByRole("button", { name: "Edit formula" }).click() },
  { file: "optimize", path: "/console/formulas/broiler-starter/optimize" },
  { file: "reports", path: "/console/reports" },
  { file: "events", path: "/console/events" },
  { file: "batch-sheet", path: "/console/formulas/broiler-starter/batch-sheet?size=2000&resolution=0.5&microResolution=0.01&microBelow=20" },
  { file: "sweep", path: `/console/formulas/broiler-starter/sweep?ingredient=${encodeURIComponent("Soybean meal 48%")}&from=250&to=750` },
  { file: "frontier", path: "/console/formulas/broiler-starter/frontier" },
  { file: "plans", path: "/console/plans" },
  { file: "plan", path: "/console/plans/december?candidates=all", then: (page) => page.locator("details summary").first().click() },
  { file: "confidence", path: "/console/formulas/layer-phase-1/confidence?confidence=0.95" },
];
/** `bun test/console/screenshots.ts plan`: only the pages whose file name starts with it (to look at one page while working on it). */
const only = process.argv[2] ?? "";

mkdirSync(OUT, { recursive: true });
const site = await startConsoleSite();
try {
  // A few price changes, so the Events page has something to show.
  for (const [name, price, inStock] of [["Maize", 231, true], ["Soybean meal 48%", 498, true], ["Wheat", 236, false]] as const) {
    const body = JSON.stringify({ price, inStock });
    await fetch(`${site.url}/v1/prices/${encodeURIComponent(name)}`, { method: "PUT", headers: { "X-API-Key": site.writeKey, "Content-Type": "application/json" }, body });
  }
  await putSharedPlan(site, "december", "December");
  for (const width of [1280, 390]) {
    const { page, context } = await openPage(site.url, { width, height: width === 390 ? 844 : 800 });
    await page.goto(site.url + "/console/");
    await page.waitForSelector("#api-key");
    await page.screenshot({ path: join(OUT, `signin-${width}.png`), fullPage: true, animations: "disabled" });
    await signIn(page, site.url, site.writeKey);
    for (const shot of PAGES.filter((p) => p.file.startsWith(only))) {
      await page.goto(site.url + shot.path);
      await settled(page);
      if (shot.then) await shot.then(page);
      await page.screenshot({ path: join(OUT, `${shot.file}-${width}.png`), fullPage: true, animations: "disabled" });
      console.log(`docs/console/${shot.file}-${width}.png`);
    }
    await context.close();
  }
} finally {
  await closeBrowser();
  await site.stop();
}
