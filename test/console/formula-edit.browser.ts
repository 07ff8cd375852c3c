/**
 * The formula editor in Debian's chromium against the demo served by dist/feedbase: a write key edits a
 * nutrient limit, the console saves it through PUT /v1/formulas/:id, shows the server's warnings as it
 * words them, and the formula's page then shows the new limit and marks the nutrient it misses; a
 * value that is not a number is refused with a sentence before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeBrowser } from "../helpers/browser.ts";
import { startConsoleSite, type ConsoleSite } from "../helpers/console-site.ts";
import { clean, column, num, visit, type Env } from "../helpers/console-page.ts";

interface Formula {
  name: string;
  nutrients: Record<string, number>;
  constraints: { nutrients: { key: string; min: number | null; max: number | null }[] };
  warnings?: string[];
}

let site: ConsoleSite;
beforeAll(async () => {
  site = await startConsoleSite();
});
afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

const ID = "broiler-starter";

describe("a write key edits a formula in the console", () => {
  test("a raised minimum is saved through PUT /v1/formulas/:id, the server's warnings show, and the page shows the new limit", async () => {
    const before = (await site.api<Env<Formula>>(`/v1/formulas/${ID}`)).data;
    const limit = before.constraints.nutrients.find((l) => l.min !== null && before.nutrients[l.key] !== undefined)!;
    // Above what the saved mix achieves: the mix now misses it, and the server says so.
    const raised = Math.ceil(before.nutrients[limit.key]! + 1);
    const { page, watch } = await visit(site, `/console/formulas/${ID}`, site.writeKey);
    await page.getByRole("button", { name: "Edit formula" }).click();
    await page.getByLabel(new RegExp(`^${limit.key} minimum`)).fill(String(raised));
    const put = page.waitForResponse((r) => r.request().method() === "PUT" && new URL(r.url()).pathname === `/v1/formulas/${ID}`);
    await page.getByRole("button", { name: "Save formula" }).click();
    const answer = (await (await put).json()) as Env<Formula>;
    expect((await put).status()).toBe(200);
    const warnings = answer.data.warnings!;
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.some((w) => w.includes(limit.key))).toBe(true);

    const status = page.locator("form.editor [role=status]");
    await status.locator("p", { hasText: "Saved, with" }).waitFor();
    expect(await status.locator("p").textContent()).toBe(`Saved, with ${warnings.length} warning${warnings.length > 1 ? "s" : ""}:`);
    expect(await status.locator("ul.warnings li").allTextContents()).toEqual(warnings);

    // The API has the new limit, and the page, reloaded from it, shows it with the row marked as missed.
    const after = (await site.api<Env<Formula>>(`/v1/formulas/${ID}`)).data;
    expect(after.constraints.nutrients.find((l) => l.key === limit.key)!.min).toBe(raised);
    const caption = `Nutrients of ${before.name} against`;
    const expected = limit.max === null ? `≥ ${num(raised)}` : `${num(raised)} – ${num(limit.max)}`;
    // The page asks for the formula again once saved; its limit cell changes when the answer is in.
    await page.locator("td[data-col=limit]", { hasText: expected }).first().waitFor();
    const keys = await column(page, caption, "key");
    const row = keys.findIndex((k) => k === limit.key || k.endsWith(`(${limit.key})`));
    expect((await column(page, caption, "limit"))[row]!.startsWith(expected)).toBe(true);
    expect(await page.locator(`table:has(caption:text-matches("^${caption}")) tbody tr`).nth(row).getAttribute("class")).toBe("miss");
    await clean(site, page, watch);
  });

  test("a limit that is not a number is refused in a sentence, and nothing is sent", async () => {
    const before = (await site.api<Env<Formula>>(`/v1/formulas/${ID}`)).data;
    const key = before.constraints.nutrients[0]!.key;
    const { page, watch } = await visit(site, `/console/formulas/${ID}`, site.writeKey);
    await page.getByRole("button", { name: "Edit formula" }).click();
    await page.getByLabel(new RegExp(`^${key} minimum`)).fill("twenty");
    await page.getByRole("button", { name: "Save formula" }).click();
    await page.locator("form.editor [role=status] .error-text").waitFor();
    expect(await page.locator("form.editor [role=status] .error-text").textContent()).toBe(`${key} min must be a number or empty`);
    expect(watch.api.filter((a) => a.startsWith("PUT"))).toEqual([]);
    await clean(site, page, watch);
  });
});
