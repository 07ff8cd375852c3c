/**
 * Every console page in Debian's chromium against the demo served by dist/feedbase, signed in with a
 * read key: the names and figures on screen are those /v1 gives the same key, the page makes no request
 * to another origin, logs no console error (a CSP refusal is one), and passes axe-core's WCAG 2 A/AA
 * rules (labels, contrast) in light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { closeBrowser, type Watch } from "../helpers/browser.ts";
import { startConsoleSite, type ConsoleSite } from "../helpers/console-site.ts";
import { clean as cleanPage, column, fixed, money, num, visit as visitAs, type Env } from "../helpers/console-page.ts";

let site: ConsoleSite;
beforeAll(async () => {
  site = await startConsoleSite();
});
afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

const perTon = (cost: number, batchSize: number) => Math.round((cost / batchSize) * 100000) / 100;
const visit = (path: string) => visitAs(site, path);
const clean = (page: Page, watch: Watch) => cleanPage(site, page, watch);

describe("the console's pages show what the API gives the same key", () => {
  test("Prices: every ingredient with the API's price per tonne, stock and category, in a handful of requests", async () => {
    const { page, watch } = await visit("/console/");
    const prices = await site.api<Env<{ name: string; price: number; inStock: boolean; category: string }[]>>("/v1/prices");
    const names = await column(page, "Ingredient prices", "name");
    expect([...names].sort()).toEqual(prices.data.map((p) => p.name).sort());
    const shown = new Map(names.map((n, i) => [n, i]));
    const price = await column(page, "Ingredient prices", "price");
    const stock = await column(page, "Ingredient prices", "stock");
    const category = await column(page, "Ingredient prices", "category");
    for (const p of prices.data) {
      const i = shown.get(p.name)!;
      expect(price[i]).toBe(`${money(p.price)} /t`);
      expect(stock[i]).toBe(p.inStock ? "in stock" : "out of stock");
      expect(category[i]).toBe(p.category);
    }
    // One sparkline per ingredient, all from one call: sign-in, the list, the histories (and nutrients never).
    expect(await page.locator("svg.spark").count()).toBe(prices.data.length);
    expect(watch.api.filter((r) => r.startsWith("GET /v1/reports/price-history"))).toHaveLength(1);
    expect(watch.api.length).toBeLessThanOrEqual(4);
    await clean(page, watch);
  });

  test("Prices: filters, search and sort act on the table and live in the URL", async () => {
    const { page, watch } = await visit("/console/?category=Cereals&stock=in&sort=price&dir=desc");
    const prices = await site.api<Env<{ name: string; price: number; inStock: boolean; category: string }[]>>("/v1/prices");
    const expected = prices.data.filter((p) => p.category === "Cereals" && p.inStock).sort((a, b) => b.price - a.price);
    expect(await column(page, "Ingredient prices", "price")).toEqual(expected.map((p) => `${money(p.price)} /t`));
    await page.fill("input[type=search]", expected[0]!.name.slice(0, 4));
    await page.waitForURL(/q=/);
    const left = await column(page, "Ingredient prices", "name");
    expect(left.every((n) => n.toLowerCase().includes(expected[0]!.name.slice(0, 4).toLowerCase()))).toBe(true);
    await clean(page, watch);
  });

  test("Ingredient: price, nutrient values and the price entries of the range are the API's", async () => {
    const name = "Soybean meal 48%";
    const { page, watch } = await visit(`/console/ingredients/${encodeURIComponent(name)}?range=all`);
    const detail = await site.api<Env<{ price: number; nutrients: Record<string, number> }>>(`/v1/ingredients/${encodeURIComponent(name)}`);
    const history = await site.api<Env<{ history: { price: number }[] }>>(`/v1/prices/${encodeURIComponent(name)}`);
    expect(await page.locator("main h1").textContent()).toBe(name);
    expect(await page.locator(".facts .big").first().textContent()).toBe(`${money(detail.data.price)} /t`);
    const values = await column(page, `Nutrient values of ${name}`, "value");
    const keys = Object.keys(detail.data.nutrients).sort();
    expect(values.map((v) => v.split(" ")[0])).toEqual(keys.map((k) => num(detail.data.nutrients[k]!)));
    expect(await column(page, `Price entries of ${name}`, "price")).toEqual(history.data.history.map((h) => `${money(h.price)} /t`));
    expect(Number(await page.locator(".chart").getAttribute("data-points"))).toBe(history.data.history.length);
    // The formulas that use it, each with +10 on its price = inclusion / 100 × 10 per tonne.
    const users = await column(page, `Formulas containing ${name}`, "perTon");
    expect(users.length).toBeGreaterThan(0);
    await clean(page, watch);
  });

  test("Formulas: saved cost and the optimizer's saving per tonne are the API's", async () => {
    const { page, watch } = await visit("/console/formulas");
    const list = await site.api<Env<{ id: string; name: string; totalCost: number; batchSize: number }[]>>("/v1/formulas");
    const savings = await site.api<Env<{ id: string; saving: { perTon: number } | null }[]>>("/v1/reports/savings");
    const names = await column(page, "Saved formulas", "name");
    expect([...names].sort()).toEqual(list.data.map((f) => f.name).sort());
    const saved = await column(page, "Saved formulas", "saved");
    const saving = await column(page, "Saved formulas", "saving");
    for (const f of list.data) {
      const i = names.indexOf(f.name);
      expect(saved[i]).toBe(`${money(perTon(f.totalCost, f.batchSize))} /t`);
      const s = savings.data.find((r) => r.id === f.id)!;
      if (s.saving) expect(saving[i]!.startsWith(`${money(s.saving.perTon)} /t`)).toBe(true);
    }
    await clean(page, watch);
  });

  test("Formula: composition and achieved nutrients are the API's, each nutrient with its limit", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter");
    const f = await site.api<Env<{ name: string; ingredients: { name: string; percent: number }[]; nutrients: Record<string, number>; constraints: { nutrients: { key: string }[] } }>>(
      "/v1/formulas/broiler-starter",
    );
    expect(await column(page, `Composition of ${f.data.name}`, "name")).toEqual(f.data.ingredients.map((i) => i.name));
    expect(await column(page, `Composition of ${f.data.name}`, "percent")).toEqual(f.data.ingredients.map((i) => `${fixed(i.percent, 4)} %`));
    const keys = await column(page, `Nutrients of ${f.data.name} against`, "key");
    const achieved = await column(page, `Nutrients of ${f.data.name} against`, "value");
    expect(keys.length).toBe(new Set([...Object.keys(f.data.nutrients), ...f.data.constraints.nutrients.map((n) => n.key)]).size);
    for (const [i, label] of keys.entries()) {
      const key = /\(([^)]+)\)$/.exec(label)?.[1] ?? label;
      if (f.data.nutrients[key] !== undefined) expect(achieved[i]!.split(" ")[0]).toBe(num(f.data.nutrients[key]!));
    }
    expect(await page.locator("svg.limitbar").count()).toBe(f.data.constraints.nutrients.length);
    await clean(page, watch);
  });

  test("Optimize: the saving, the optimum's percents and the excluded candidates are the API's", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter/optimize");
    const r = await site.api<Env<{ saving: { perTon: number }; optimized: { ingredients: { name: string; percent: number }[] }; excluded: { name: string }[] }>>(
      "/v1/formulas/broiler-starter/optimize?candidates=formula",
    );
    expect(await page.locator(".facts .saving").textContent()).toBe(`${money(r.data.saving.perTon)} /t`);
    const names = await column(page, "Saved mix beside the optimum", "name");
    const optimum = await column(page, "Saved mix beside the optimum", "optimum");
    for (const i of r.data.optimized.ingredients) expect(optimum[names.indexOf(i.name)]).toBe(`${fixed(i.percent, 4)} %`);
    expect(await column(page, "Candidates left out", "name")).toEqual(r.data.excluded.map((x) => x.name));
    await clean(page, watch);
  });

  test("Optimize: a what-if price re-solves in place with the price= override, and nothing is stored", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter/optimize");
    const what = "Soybean meal 48%";
    const r = await site.api<Env<{ saving: { perTon: number } }>>(`/v1/formulas/broiler-starter/optimize?candidates=formula&price=${encodeURIComponent(`${what}=350`)}`);
    await page.getByLabel(what, { exact: true }).fill("350");
    await page.locator(".facts .saving", { hasText: `${money(r.data.saving.perTon)} /t` }).waitFor();
    const before = await site.api<Env<{ price: number }>>(`/v1/prices/${encodeURIComponent(what)}`);
    expect(before.data.price).not.toBe(350);
    expect(watch.api.some((a) => a.includes("price=Soybean%20meal%2048%25%3D350"))).toBe(true);
    await clean(page, watch);
  });

  test("Reports: the savings worklist and the cost changes are the API's", async () => {
    const { page, watch } = await visit("/console/reports");
    const savings = await site.api<Env<{ name: string }[]>>("/v1/reports/savings");
    const changes = await site.api<Env<{ name: string }[]>>("/v1/reports/cost-changes");
    expect(await column(page, "Formulas by saving", "name")).toEqual(savings.data.map((s) => s.name));
    expect(await column(page, "Formulas whose cost moved", "name")).toEqual(changes.data.map((s) => s.name));
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download the worklist as CSV" }).click();
    const csv = await (await download).path();
    const lines = (await Bun.file(csv).text()).trim().split("\r\n");
    expect(lines).toHaveLength(savings.data.length + 1);
    expect(lines[0]!.startsWith("id,name,")).toBe(true);
    await clean(page, watch);
  });

  test("Events: the latest events, newest first, as GET /v1/events has them", async () => {
    const res = await fetch(`${site.url}/v1/prices/${encodeURIComponent("Barley")}`, {
      method: "PUT",
      headers: { "X-API-Key": site.writeKey, "Content-Type": "application/json" },
      body: JSON.stringify({ price: 201.5 }),
    });
    expect(res.status).toBe(200);
    const { page, watch } = await visit("/console/events");
    const events = await site.api<Env<{ id: number }[]>>("/v1/events?limit=1000");
    expect(await column(page, "The latest", "id")).toEqual(events.data.map((e) => String(e.id)).reverse().slice(0, 100));
    await clean(page, watch);
  });

  test("Batch sheet: the amounts to weigh are the API's, in order of addition, and print on one A4 page", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter/batch-sheet?size=2000&resolution=0.5&microResolution=0.01&microBelow=20");
    const sheet = await site.api<Env<{ name: string; lines: { name: string; kg: number }[] }>>(
      "/v1/formulas/broiler-starter/batch?size=2000&resolution=0.5&microResolution=0.01&microBelow=20",
    );
    expect(await column(page, `Batch sheet of ${sheet.data.name}`, "name")).toEqual(sheet.data.lines.map((l) => l.name));
    expect(await column(page, `Batch sheet of ${sheet.data.name}`, "kg")).toEqual(sheet.data.lines.map((l) => `${fixed(l.kg, 3)} kg`));
    const pdf = await page.pdf({ format: "A4" });
    // Pages of the PDF: one /Type /Page object each.
    expect(new TextDecoder("latin1").decode(pdf).match(/\/Type\s*\/Page\b/g)?.length).toBe(1);
    await clean(page, watch);
  });

  test("Sweep: the breakpoints and every point's share and cost are the API's", async () => {
    const q = `ingredient=${encodeURIComponent("Soybean meal 48%")}&from=250&to=750&points=11`;
    const { page, watch } = await visit(`/console/formulas/broiler-starter/sweep?${q}`);
    const s = await site.api<Env<{ points: { price: number; percent: number | null; costPerTon: number | null }[]; breakpoints: { price: number }[] }>>(
      `/v1/formulas/broiler-starter/sweep?${q}`,
    );
    expect(await column(page, "Prices of Soybean meal 48% at which", "price")).toEqual(s.data.breakpoints.map((b) => `${money(b.price)} /t`));
    expect(await column(page, "Sweep of Soybean meal 48%", "percent")).toEqual(s.data.points.map((p) => (p.percent === null ? "—" : `${fixed(p.percent, 4)} %`)));
    expect(await column(page, "Sweep of Soybean meal 48%", "cost")).toEqual(s.data.points.map((p) => (p.costPerTon === null ? "—" : `${money(p.costPerTon)} /t`)));
    expect(Number(await page.locator(".chart").getAttribute("data-points"))).toBe(s.data.points.length);
    await clean(page, watch);
  });

  test("Frontier: each point's footprint and cost, and the abatement costs, are the API's", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter/frontier");
    const fr = await site.api<Env<{ points: { co2ePerTon: number; costPerTon: number }[]; abatement: { costPerTonneCo2e: number | null }[] }>>(
      "/v1/formulas/broiler-starter/frontier?candidates=formula",
    );
    if (fr.data.points.length === 0) expect(await page.locator("[data-status]").textContent()).toContain("no frontier to draw");
    expect(await column(page, "Points of the frontier", "co2e")).toEqual(fr.data.points.map((p) => `${fixed(p.co2ePerTon, 1)} kg CO2e/t`));
    expect(await column(page, "Points of the frontier", "cost")).toEqual(fr.data.points.map((p) => `${money(p.costPerTon)} /t`));
    const abatement = fr.data.abatement as unknown as { from: number; to: number }[];
    expect(await column(page, "Abatement cost", "from")).toEqual(abatement.map((a) => `${fixed(a.from, 1)} kg CO2e/t`));
    expect(await column(page, "Abatement cost", "to")).toEqual(abatement.map((a) => `${fixed(a.to, 1)} kg CO2e/t`));
    expect(await column(page, "Abatement cost", "cost")).toEqual(fr.data.abatement.map((a) => (a.costPerTonneCo2e === null ? "—" : `${money(a.costPerTonneCo2e)} per t CO2e`)));
    await clean(page, watch);
  });

  test("Confidence: the cost at each level, and the odds at the level chosen, are the API's; a new level is asked in percent", async () => {
    const curve = await site.api<Env<{ points: { confidence: number; costPerTon: number | null }[] }>>("/v1/formulas/broiler-starter/confidence?candidates=formula");
    // The highest level of the curve some mix reaches (the demo's lab analyses set how high that is).
    const level = curve.data.points.filter((p) => p.costPerTon !== null).at(-1)!.confidence;
    const { page, watch } = await visit(`/console/formulas/broiler-starter/confidence?confidence=${level}`);
    const levels = "Cost of the least-cost mix at each confidence level";
    expect(await column(page, levels, "level")).toEqual(curve.data.points.map((p) => `${fixed(p.confidence * 100, 2)} %`));
    expect(await column(page, levels, "cost")).toEqual(curve.data.points.map((p) => (p.costPerTon === null ? "no mix" : `${money(p.costPerTon)} /t`)));
    expect(Number(await page.locator(".chart").getAttribute("data-points"))).toBe(curve.data.points.length);

    type AtLevel = { optimized: { costPerTon: number; odds: Record<string, { mean: number; probabilityMin: number | null; probabilityMax: number | null }> }; premium: number };
    const at = await site.api<Env<AtLevel>>(`/v1/formulas/broiler-starter/optimize?candidates=formula&confidence=${level}`);
    const odds = `Odds of each nutrient limit in the mix at ${fixed(level * 100, 2)} %`;
    const keys = Object.keys(at.data.optimized.odds);
    const shown = await column(page, odds, "key");
    expect(shown.map((k) => /\(([^)]+)\)$/.exec(k)?.[1] ?? k)).toEqual(keys);
    const p = (v: number | null) => (v === null ? "—" : `${fixed(v * 100, 2)} %`);
    expect(await column(page, odds, "min")).toEqual(keys.map((k) => p(at.data.optimized.odds[k]!.probabilityMin)));
    expect(await column(page, odds, "max")).toEqual(keys.map((k) => p(at.data.optimized.odds[k]!.probabilityMax)));
    expect((await column(page, odds, "mean")).map((m) => m.split(" ")[0])).toEqual(keys.map((k) => num(at.data.optimized.odds[k]!.mean)));
    expect(await page.locator(".facts").textContent()).toContain(`${money(at.data.optimized.costPerTon)} /t`);

    await page.getByLabel(/^Confidence/).fill("50");
    await page.getByRole("button", { name: "Show the odds" }).click();
    await page.waitForURL(/confidence=0\.5$/);
    await page.locator("caption", { hasText: "Odds of each nutrient limit in the mix at 50.00 %" }).waitFor();
    expect(watch.api.some((a) => a.endsWith("/optimize?candidates=formula&confidence=0.5"))).toBe(true);
    await clean(page, watch);
  });

  test("Confidence: a level the API refuses is said in its words", async () => {
    const { page, watch } = await visit("/console/formulas/broiler-starter/confidence?confidence=2");
    const res = await fetch(`${site.url}/v1/formulas/broiler-starter/optimize?candidates=formula&confidence=2`, { headers: { "X-API-Key": site.readKey } });
    expect(res.status).toBe(400);
    const message = ((await res.json()) as { message: string }).message;
    expect(await page.locator("[role=alert] p").first().textContent()).toBe(`Could not load the optimum at this level: ${message}`);
    // The browser logs the refused request itself; nothing else may be logged.
    watch.errors = watch.errors.filter((e) => !(e.includes("400") && e.includes("confidence=2")));
    await clean(page, watch);
  });
});
