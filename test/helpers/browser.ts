/**
 * Debian's chromium driven by playwright-core, for the console's tests and screenshots. Never a
 * downloaded browser: the Makefile installs Debian's package. One browser per process (a test file runs
 * in its own `bun test` process: make test-console), a fresh context per test; every page is watched
 * for console errors, uncaught exceptions and requests to any other origin.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.FEEDBASE_CHROMIUM ?? "/usr/bin/chromium";

/** The machine's network is closed and the tests must not depend on it: every background service off. */
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let launched: Promise<Browser> | null = null;

/**
 * The process's browser, launched on first use. Playwright gives it a fresh temporary --user-data-dir
 * of its own (and refuses one in `args`), removed when the browser closes.
 */
export function browser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return launched;
}

export async function closeBrowser(): Promise<void> {
  if (launched) await (await launched).close();
  launched = null;
}

/** What went wrong on a page: console errors, uncaught exceptions, requests that left the origin. */
export interface Watch {
  errors: string[];
  foreign: string[];
  /** Every request the page made to /v1, as method and path with query. */
  api: string[];
}

/**
 * A fresh context (no storage shared with other tests) and a page on it, watched.
 * @example const { page, watch } = await openPage(server.url); await page.goto(server.url + "/console/")
 */
export async function openPage(origin: string, options: { width?: number; height?: number; colorScheme?: "light" | "dark" } = {}): Promise<{ context: BrowserContext; page: Page; watch: Watch }> {
  const context = await (await browser()).newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    deviceScaleFactor: 1,
    reducedMotion: "reduce",
    colorScheme: options.colorScheme ?? "light",
  });
  const watch: Watch = { errors: [], foreign: [], api: [] };
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== origin && url.protocol !== "data:" && url.protocol !== "blob:") {
      watch.foreign.push(url.href);
      return route.abort();
    }
    if (url.pathname.startsWith("/v1/")) watch.api.push(`${route.request().method()} ${url.pathname}${url.search}`);
    return route.continue();
  });
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") watch.errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => watch.errors.push(`uncaught: ${e.message}`));
  return { context, page, watch };
}

/** Sign in through the form, as a person does, and wait for the shell. */
export async function signIn(page: Page, origin: string, key: string, path = "/console/"): Promise<void> {
  await page.goto(origin + path);
  await page.fill("#api-key", key);
  await page.click("button[type=submit]");
  await page.waitForSelector("header.top");
}

/** Wait until no loading placeholder and no "Solving…" remain on the page. */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector("main h1");
  // A function, not a string (the page's CSP refuses eval); it runs in the page, whose DOM this program's (Bun's) types do not describe.
  await page.waitForFunction(
    () => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
      return !doc.querySelector(".loading, .skeleton") && !doc.querySelector(".solving")?.textContent?.includes("Solving");
    },
    null,
    { timeout: 20_000 },
  );
}
