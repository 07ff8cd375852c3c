/**
 * What the console's browser tests share: the page's number formats written out independently of
 * console/format.ts (a test that imported it would agree with any change), a table column read by its
 * caption, a signed-in visit, and the checks every page must pass once done.
 */
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations } from "./axe.ts";
import { openPage, settled, signIn, type Watch } from "./browser.ts";
import type { ConsoleSite } from "./console-site.ts";

const fixedFormat = (digits: number) => new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** Money at 2 decimals, with the minus sign the console prints. */
export const money = (n: number) => fixedFormat(2).format(n).replace("-", "−");
/** A fixed number of decimals, thousands grouped. */
export const fixed = (n: number, digits: number) => fixedFormat(digits).format(n);
/** A signed change at 2 decimals, with the minus sign the console prints. */
export const signed = (n: number) => new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(n).replace("-", "−");
/** Up to `max` decimals. */
export const num = (n: number, max = 4) => new Intl.NumberFormat("en-US", { maximumFractionDigits: max }).format(n);

export interface Env<T> {
  data: T;
}

/** The text of each cell of a column, by row, of the table whose caption starts with `caption`. */
export async function column(page: Page, caption: string, col: string): Promise<string[]> {
  return page.$$eval(
    "table",
    (tables, [cap, c]) => {
      const t = tables.find((x) => x.querySelector("caption")?.textContent?.startsWith(cap!));
      return t ? [...t.querySelectorAll(`tbody td[data-col="${c}"]`)].map((td) => td.textContent!.replace(/\s+/g, " ").trim()) : [];
    },
    [caption, col] as const,
  );
}

/** A fresh, watched page signed in with `key` (the read key by default) on `path`, settled. */
export async function visit(site: ConsoleSite, path: string, key = site.readKey): Promise<{ page: Page; watch: Watch }> {
  const { page, watch } = await openPage(site.url);
  await signIn(page, site.url, key, path);
  await settled(page);
  return { page, watch };
}

/** What every page must be once done: no other origin asked, no console error, no axe violation. */
export async function clean(site: ConsoleSite, page: Page, watch: Watch): Promise<void> {
  expect(watch.foreign).toEqual([]);
  expect(await site.unexpected(watch)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  await page.context().close();
}
