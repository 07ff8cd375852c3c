/**
 * The Plans pages in Debian's chromium against the demo served by dist/feedbase: the list, a plan
 * optimized under a supply that binds (each line's tonnage and cost per tonne, the plan's cost, each
 * ingredient's use against its supply and what one more tonne is worth, each formula's mix), an
 * infeasible plan's repairs, and the empty and error states; every figure equal to what /v1 gives the
 * same key, with its unit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeBrowser } from "../helpers/browser.ts";
import { startConsoleSite, type ConsoleSite } from "../helpers/console-site.ts";
import { clean, column, fixed, money, signed, visit, type Env } from "../helpers/console-page.ts";

interface PlanResult {
  name: string;
  status: "optimal" | "infeasible";
  totalTons: number;
  cost: number;
  independentCost: number;
  sharingCost: number;
  formulas: { id: string; name: string; tons: number; costPerTon: number; independentCostPerTon: number; ingredients: { name: string; percent: number; tons: number }[] }[];
  usage: { name: string; tons: number; minTons: number | null; maxTons: number | null; bound: "min" | "max" | null; shadowPrice: number | null }[];
  conflicts: { kind: string; name?: string; bound: string }[];
}

let site: ConsoleSite;
/** The demo's first two formulas that have an optimum at today's prices. */
let lines: { formula: string; tons: number }[];
/** The ingredient the two use most, capped below what they would use alone. */
let capped: { name: string; maxTons: number };

const tonnes = (n: number) => fixed(n, 1);

async function putPlan(id: string, body: unknown): Promise<number> {
  const res = await fetch(`${site.url}/v1/plans/${id}`, { method: "PUT", headers: { "X-API-Key": site.writeKey, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`PUT /v1/plans/${id}: ${res.status} ${await res.text()}`);
  return res.status;
}

beforeAll(async () => {
  site = await startConsoleSite();
  const savings = await site.api<Env<{ id: string; status: string }[]>>("/v1/reports/savings");
  const ids = savings.data.filter((s) => s.status === "optimal").map((s) => s.id).slice(0, 2);
  lines = [
    { formula: ids[0]!, tons: 1200 },
    { formula: ids[1]!, tons: 3000 },
  ];
  // Free of any supply first, to learn what the plan would use; then 90 % of the largest use is all there is.
  await putPlan("free", { name: "Free", lines });
  const free = await site.api<Env<PlanResult>>("/v1/plans/free/optimize");
  const most = [...free.data.usage].sort((a, b) => b.tons - a.tons)[0]!;
  capped = { name: most.name, maxTons: Math.floor(most.tons * 0.9) };
});
afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

describe("the Plans pages show what the plans API gives the same key", () => {
  test("a plan under a supply that binds: lines, costs per tonne, use against supply, what binds and each mix are the API's", async () => {
    expect(await putPlan("month", { name: "Month", lines, supply: [{ name: capped.name, minTons: null, maxTons: capped.maxTons }] })).toBe(201);
    const r = (await site.api<Env<PlanResult>>("/v1/plans/month/optimize")).data;
    expect(r.status).toBe("optimal");
    const { page, watch } = await visit(site, "/console/plans/month");
    expect(await page.locator("main h1").textContent()).toBe("Plan · Month");

    const caption = "Lines of Month";
    expect(await column(page, caption, "name")).toEqual(r.formulas.map((f) => f.name));
    expect(await column(page, caption, "tons")).toEqual(r.formulas.map((f) => `${tonnes(f.tons)} t`));
    expect(await column(page, caption, "cost")).toEqual(r.formulas.map((f) => `${money(f.costPerTon)} /t`));
    expect(await column(page, caption, "alone")).toEqual(r.formulas.map((f) => `${money(f.independentCostPerTon)} /t`));
    expect(await column(page, caption, "total")).toEqual(r.formulas.map((f) => `${money(f.costPerTon * f.tons)} in all`));

    const facts = (await page.locator(".facts").textContent())!.replace(/\s+/g, " ");
    expect(facts).toContain(`${money(r.cost)} for ${tonnes(r.totalTons)} t`);
    expect(facts).toContain(`${money(r.independentCost)} in all`);
    expect(facts).toContain(`${signed(r.sharingCost)} in all`);

    // The capped ingredient binds at its max: the API's shadow price is what one more tonne is worth.
    const usage = "Use of each ingredient against its supply";
    const bound = r.usage.find((u) => u.name === capped.name)!;
    expect(bound.bound).toBe("max");
    const names = await column(page, usage, "name");
    expect([...names].sort()).toEqual(r.usage.map((u) => u.name).sort());
    expect(names[0]).toBe(capped.name);
    const used = await column(page, usage, "used");
    for (const u of r.usage) expect(used[names.indexOf(u.name)]).toBe(`${tonnes(u.tons)} t`);
    expect((await column(page, usage, "supply"))[0]).toBe(`≤ ${tonnes(capped.maxTons)} t`);
    expect((await column(page, usage, "binds"))[0]).toBe("max: all used");
    expect((await column(page, usage, "shadow"))[0]).toBe(`${signed(bound.shadowPrice!)} /t`);
    const binding = (await page.locator("ul.binding").textContent())!;
    expect(binding).toContain(`${capped.name}: all ${tonnes(capped.maxTons)} t available are used`);
    if (bound.shadowPrice !== null && bound.shadowPrice !== 0) expect(binding).toContain(`lower the plan's cost by ${money(Math.abs(bound.shadowPrice))}`);

    for (const f of r.formulas) {
      expect(await column(page, `Mix of ${f.name} in the plan`, "name")).toEqual(f.ingredients.map((i) => i.name));
      expect(await column(page, `Mix of ${f.name} in the plan`, "percent")).toEqual(f.ingredients.map((i) => `${fixed(i.percent, 4)} %`));
      expect(await column(page, `Mix of ${f.name} in the plan`, "tons")).toEqual(f.ingredients.map((i) => `${tonnes(i.tons)} t`));
    }
    await clean(site, page, watch);
  });

  test("the list names every plan with its tonnage, newest first, and opens one", async () => {
    const list = await site.api<Env<{ id: string; name: string; totalTons: number; formulas: number }[]>>("/v1/plans");
    expect(list.data.length).toBeGreaterThan(0);
    const { page, watch } = await visit(site, "/console/plans");
    expect(await column(page, "Production plans", "name")).toEqual(list.data.map((p) => p.name));
    expect(await column(page, "Production plans", "tons")).toEqual(list.data.map((p) => `${tonnes(p.totalTons)} t`));
    expect(await column(page, "Production plans", "formulas")).toEqual(list.data.map((p) => `${p.formulas} ${p.formulas === 1 ? "formula" : "formulas"}`));
    await page.getByRole("link", { name: list.data[0]!.name, exact: true }).click();
    await page.waitForURL(`${site.url}/console/plans/${list.data[0]!.id}`);
    await page.locator("[data-status]").waitFor();
    await clean(site, page, watch);
  });

  test("an infeasible plan lists the single changes that would make it feasible", async () => {
    // More of one ingredient must be taken than the two formulas could ever hold.
    await putPlan("too-much", { name: "Too much", lines, supply: [{ name: capped.name, minTons: 100_000, maxTons: null }] });
    const r = (await site.api<Env<PlanResult>>("/v1/plans/too-much/optimize")).data;
    expect(r.status).toBe("infeasible");
    const { page, watch } = await visit(site, "/console/plans/too-much");
    const alert = (await page.locator("[data-status=infeasible]").textContent())!;
    expect(alert).toContain("No mixes meet every formula's limits within this supply");
    expect(await page.locator("[data-status=infeasible] li").count()).toBe(r.conflicts.length);
    if (r.conflicts.some((c) => c.kind === "supply")) expect(alert).toContain(`${capped.name} supply min from ${tonnes(100_000)} t`);
    await clean(site, page, watch);
  });

  test("a plan that does not exist says so in the API's words; a workspace without plans says how to make one", async () => {
    const { page, watch } = await visit(site, "/console/plans/no-such-plan");
    expect(await page.locator("[role=alert] p").first().textContent()).toBe("Could not load the plan: Plan not found: no-such-plan");
    // The browser logs the 404 of the request itself; nothing else may be logged.
    watch.errors = watch.errors.filter((e) => !(e.includes("404") && e.includes("/v1/plans/no-such-plan")));
    await clean(site, page, watch);

    const empty = await startConsoleSite();
    try {
      const plans = await empty.api<Env<unknown[]>>("/v1/plans");
      if (plans.data.length === 0) {
        const { page: p2, watch: w2 } = await visit(empty, "/console/plans");
        expect(await p2.locator(".note.empty").textContent()).toContain("No production plan yet");
        await clean(empty, p2, w2);
      }
    } finally {
      await empty.stop();
    }
  });
});
