/**
 * Who may do what in the console, in Debian's chromium against dist/feedbase: a read key finds no edit
 * control, a write key edits a price and the chart gains the point, a bad or deactivated key shows the
 * API's message and keeps the page, a rate-limited key is told when to retry, sign-in and navigation
 * work from the keyboard alone, and the first load stays within its byte budget.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeBrowser, openPage, settled, signIn } from "../helpers/browser.ts";
import { EXE, startConsoleSite, type ConsoleSite } from "../helpers/console-site.ts";
import { cli } from "../helpers/harness.ts";

let site: ConsoleSite;
beforeAll(async () => {
  site = await startConsoleSite();
});
afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

const INGREDIENT = "/console/ingredients/" + encodeURIComponent("Soybean meal 48%") + "?range=all";

describe("what a key may do in the console", () => {
  test("a read key finds no edit control on any page that has one for a write key", async () => {
    for (const [key, expected] of [
      [site.readKey, 0],
      [site.writeKey, 1],
    ] as const) {
      const { page, watch } = await openPage(site.url);
      await signIn(page, site.url, key, INGREDIENT);
      await settled(page);
      expect(await page.locator("input[name=price]").count()).toBe(expected);
      await page.goto(site.url + "/console/formulas/broiler-starter");
      await settled(page);
      expect(await page.getByRole("button", { name: "Edit formula" }).count()).toBe(expected);
      await page.goto(site.url + "/console/formulas/broiler-starter/optimize");
      await settled(page);
      expect(await page.getByRole("button", { name: "Save as new formula" }).count()).toBe(expected);
      expect(await page.locator("header .badge").textContent()).toBe(expected ? "can edit" : "read only");
      expect(watch.foreign).toEqual([]);
      await page.context().close();
    }
  });

  test("a write key changes a price: the API has it and the chart gains the point", async () => {
    const { page, watch } = await openPage(site.url);
    await signIn(page, site.url, site.writeKey, INGREDIENT);
    await settled(page);
    const chart = page.locator(".chart");
    const before = Number(await chart.getAttribute("data-points"));
    await page.fill("input[name=price]", "512.5");
    await page.click("text=Save price");
    await page.locator(`.chart[data-points="${before + 1}"]`).waitFor();
    const history = (await site.api<{ data: { price: number; history: { price: number }[] } }>(`/v1/prices/${encodeURIComponent("Soybean meal 48%")}`)).data;
    expect(history.price).toBe(512.5);
    expect(history.history).toHaveLength(before + 1);
    expect(history.history[0]!.price).toBe(512.5);
    expect(await page.locator(".facts .big").first().textContent()).toBe("512.50 /t");
    expect(await page.locator("form.editor [role=status]").textContent()).toContain("Saved: 512.50 /t");
    expect(await site.unexpected(watch)).toEqual([]);
    await page.context().close();
  });

  test("a bad key shows the API's message, and the form stays for another try", async () => {
    const { page, watch } = await openPage(site.url);
    await page.goto(site.url + "/console/formulas");
    await page.fill("#api-key", "fbk_this-key-does-not-exist");
    await page.click("button[type=submit]");
    await expect(page.locator("[role=alert]").textContent()).resolves.toBe("Invalid or inactive API key");
    expect(await page.locator("#api-key").count()).toBe(1);
    expect(page.url()).toBe(site.url + "/console/formulas");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    // The browser logs the refused request itself; nothing else may be logged.
    expect((await site.unexpected(watch)).filter((e) => !e.includes("401"))).toEqual([]);
    await page.context().close();
  });

  test("a key deactivated meanwhile: the next request shows the API's message on the sign-in form, on the same page", async () => {
    const key = await site.key();
    const { page } = await openPage(site.url);
    await signIn(page, site.url, key, "/console/formulas");
    await settled(page);
    const id = (await site.api<{ data: { id: string } }>("/v1/key", key)).data.id;
    expect((await cli(["key", "deactivate", id, "--data", site.dataPath], { command: [EXE] })).code).toBe(0);
    await page.getByRole("link", { name: "Reports" }).click();
    await page.waitForSelector("#api-key");
    expect(await page.locator("[role=alert]").textContent()).toBe("Invalid or inactive API key");
    expect(page.url()).toBe(site.url + "/console/reports");
    await page.context().close();
  });

  test("a rate-limited key is told when it may continue, and keeps its page", async () => {
    const key = await site.key({ rateLimit: 4 });
    const { page } = await openPage(site.url);
    // Sign-in (1) and the price list with its histories (2): then the formulas page goes over the limit.
    await signIn(page, site.url, key);
    await settled(page);
    await page.getByRole("link", { name: "Formulas" }).click();
    await page.waitForSelector(".signin [role=alert]");
    const alert = await page.locator(".signin [role=alert]").textContent();
    expect(alert).toContain("Rate limit exceeded");
    expect(alert).toMatch(/You can continue in \d+ s; your place in the console is kept\./);
    expect(page.url()).toBe(site.url + "/console/formulas");
    expect(await page.getByRole("button", { name: "Waiting for the rate limit…" }).isDisabled()).toBe(true);
    await page.context().close();
  });

  test("keyboard only: sign in, skip to the content, move between sections; focus lands on each page's heading", async () => {
    const { page, watch } = await openPage(site.url);
    await page.goto(site.url + "/console/");
    // The key field takes the focus once the form is drawn (after the page's load event): a person
    // sees the caret there before typing, so the test waits for it too.
    await page.locator("#api-key:focus").waitFor();
    await page.keyboard.type(site.readKey);
    await page.keyboard.press("Enter");
    await page.waitForSelector("header.top");
    await settled(page);
    await page.keyboard.press("Tab");
    const focused = () => page.locator(":focus").textContent();
    expect(await focused()).toBe("Skip to content");
    // Tab forward to the Formulas section and open it with Enter.
    for (let i = 0; i < 10 && (await focused()) !== "Formulas"; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(site.url + "/console/formulas");
    expect(await page.locator("h1:focus").textContent()).toBe("Formulas");
    await settled(page);
    // Into the table: the first formula link, opened from the keyboard.
    for (let i = 0; i < 40 && (await page.locator("tbody :focus").count()) === 0; i++) await page.keyboard.press("Tab");
    const name = await focused();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/console\/formulas\/[^/]+$/);
    await settled(page);
    await page.locator("main h1", { hasText: name! }).waitFor();
    expect(await site.unexpected(watch)).toEqual([]);
    await page.context().close();
  });

  test("the first load of the Prices page is under 250 KB on the wire, the console's own files under 100 KB", async () => {
    const { page } = await openPage(site.url);
    await signIn(page, site.url, site.readKey);
    await settled(page);
    // A reload with the key in the tab: the page, its assets and its data calls, as a returning user has them.
    await page.reload();
    await settled(page);
    // Evaluated in the page (a string: this program's types are Bun's, not the DOM's): compressed body bytes of every entry.
    const bytes = (await page.evaluate(`(() => {
      const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
      const sum = (list) => list.reduce((n, e) => n + e.encodedBodySize, 0);
      return { all: sum(entries), own: sum(entries.filter((e) => !new URL(e.name).pathname.startsWith("/v1/"))) };
    })()`)) as { all: number; own: number };
    console.log(`first load: ${bytes.all} bytes on the wire, of which the console's files ${bytes.own}`);
    expect(bytes.own).toBeGreaterThan(0);
    expect(bytes.own).toBeLessThan(100_000);
    expect(bytes.all).toBeLessThan(250_000);
    await page.context().close();
  });
});
