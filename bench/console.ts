/**
 * The console's budget (`bun bench/console.ts [runs]`, after `make build`; `make bench-console`): the
 * demo's Prices page served by dist/feedbase in Debian's chromium, time from navigation start to the
 * page's `console-ready` mark (the table holds every price and sparkline), for a first visit (a fresh
 * browser context: nothing cached; the key already in the tab, as after signing in) and for a revisit
 * (the same tab reloaded: assets from the browser's cache, data calls answered 304). Prints medians and
 * maxima against the 1 s budget, and the first visit's bytes on the wire against 250 KB. Then a Plan
 * page (two broiler feeds sharing a capped cereal, all candidates): navigation start to the optimized
 * plan on screen, the first visit solving it and the others served from the server's answer cache.
 */
import { closeBrowser, openPage, settled } from "../test/helpers/browser.ts";
import { putSharedPlan, startConsoleSite } from "../test/helpers/console-site.ts";

const RUNS = Number(process.argv[2] ?? 9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Evaluated in the page through the debugging protocol (strings: this program's types are Bun's, not the DOM's).
const READY = `performance.getEntriesByName("console-ready")[0]?.startTime ?? null`;
const BYTES = `[...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce((n, e) => n + e.encodedBodySize, 0)`;

/** The mark, once the page has set it (polled here: waitForFunction with a string would be an eval, which the CSP refuses). */
async function ready(page: import("playwright-core").Page): Promise<number> {
  for (;;) {
    const at = (await page.evaluate(READY)) as number | null;
    if (at !== null) return at;
    await Bun.sleep(20);
  }
}

/** Navigation start to the page's `console-ready` mark, in a fresh context with the key already in the tab. */
async function visit(url: string, key: string): Promise<{ at: number; page: import("playwright-core").Page; context: import("playwright-core").BrowserContext }> {
  const { page, context } = await openPage(new URL(url).origin);
  await context.addInitScript({ content: `sessionStorage.setItem("feedbase.key", ${JSON.stringify(key)})` });
  await page.goto(url);
  await settled(page);
  return { at: await ready(page), page, context };
}

const site = await startConsoleSite();
const first: number[] = [];
const again: number[] = [];
const plan: number[] = [];
let bytes = 0;
try {
  for (let i = 0; i < RUNS; i++) {
    const { at, page, context } = await visit(`${site.url}/console/`, site.readKey);
    first.push(at);
    bytes = Math.max(bytes, (await page.evaluate(BYTES)) as number);
    await page.reload();
    await settled(page);
    again.push(await ready(page));
    await context.close();
  }
  await putSharedPlan(site, "bench", "Bench");
  for (let i = 0; i < RUNS; i++) {
    const { at, context } = await visit(`${site.url}/console/plans/bench?candidates=all`, site.readKey);
    plan.push(at);
    await context.close();
  }
} finally {
  await closeBrowser();
  await site.stop();
}
const line = (what: string, xs: number[]) => `${what}: median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${(median(xs) / 1000).toFixed(2)} of the 1 s budget)`;
console.log(`Prices page of the demo, ${RUNS} runs, navigation start to interactive`);
console.log(line("first visit", first));
console.log(line("revisit", again));
console.log(`first visit on the wire: ${bytes} bytes (${(bytes / 250_000).toFixed(2)} of the 250 KB budget)`);
console.log(`Plan page (2 lines, a binding supply, every ingredient a candidate), navigation start to the optimized plan on screen`);
console.log(`first visit, the plan solved: ${plan[0]!.toFixed(0)} ms (${(plan[0]! / 1000).toFixed(2)} of the 1 s budget)`);
if (plan.length > 1) console.log(line("later visits, the answer cached", plan.slice(1)));
