import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFormulaFile } from "../src/domain/formula-file.ts";
import { routes as table } from "../src/http/routes/index.ts";
import { accessOf, type Route } from "../src/http/route.ts";
import { startTestServer, TestClock, type TestServer } from "./helpers/harness.ts";
import { openTestStore, storedEvents } from "./helpers/store.ts";

/**
 * Every route and method of `routes`, with a write key of one workspace against the data of another.
 * Each workspace's records carry its marker (in names, categories, formula names), so any leak of the
 * other's data shows in a body. A route added later is covered as it is: a read needs only its required
 * query in REQUIRED_QUERY (else it answers 400 here), a write
 * needs a body in WRITE_BODIES (the test says which is missing).
 */
const NOW = "2026-11-21T12:00:00.000Z";
const LATER = "2026-11-22T12:00:00.000Z";

/** Path parameter values that exist in both workspaces, with different data behind them. */
const SHARED: Record<string, string[]> = { name: ["Maize"], id: ["starter"], key: ["CP"] };

/** The query a read route cannot answer without (its required parameters), valid for either side's data. */
const REQUIRED_QUERY: Record<string, string> = {
  "/v1/formulas/:id/batch": "size=500&resolution=1",
  "/v1/formulas/:id/sweep": "ingredient=Maize&from=100&to=300&points=3",
};

/** A valid body for each write route; `name` is one the other workspace holds. */
const WRITE_BODIES: Record<string, (name: string) => unknown> = {
  "POST /v1/ingredients": (name) => ({ name, category: "Copied", price: 1 }),
  "PUT /v1/ingredients/:name": () => ({ price: 1 }),
  "PUT /v1/prices/:name": () => ({ price: 1 }),
  "PUT /v1/nutrients/:key": () => ({ name: "Copied", unit: "%", basis: "as-fed" }),
  "PUT /v1/formulas/:id": () => ({ name: "Copied", species: "Copied", subcategory: "Copied", batchSize: 1000, ingredients: [{ name: "Maize", percent: 100 }] }),
  "PUT /v1/plans/:id": () => ({ name: "Copied", lines: [{ formula: "starter", tons: 1 }] }),
  "POST /v1/ingredients/:name/analyses": () => ({ nutrients: { CP: 1 }, sampledAt: NOW, lab: "Copied" }),
};

interface Side {
  slug: string;
  marker: string;
  workspaceId: number;
  key: string;
  /** Path parameter values that exist in this workspace only. */
  only: Record<string, string[]>;
}

function workspaceData(marker: string, cereal: number) {
  const m = marker.toLowerCase();
  return {
    csv: [
      `name,category,price,inStock,${marker}N`,
      `${marker} maize,${marker} cereals,${cereal},true,1`,
      `${marker} soy,${marker} proteins,${cereal * 2},false,`,
      `Maize,${marker} cereals,${cereal + 10},true,`,
    ].join("\n"),
    formulas: JSON.stringify([
      { id: `${m}-starter`, name: `${marker} starter`, species: `${marker} poultry`, subcategory: `${marker} starter`, batchSize: 1000, ingredients: [{ name: `${marker} maize`, percent: 60 }, { name: `${marker} soy`, percent: 40 }] },
      { id: "starter", name: `${marker} shared starter`, species: "Poultry", subcategory: "Starter", batchSize: 500, ingredients: [{ name: "Maize", percent: 100 }] },
    ]),
    only: { name: [`${marker} maize`, `${marker} soy`], id: [`${m}-starter`], key: [`${marker}N`] },
  };
}

let t: TestServer;
let alpha: Side;
let beta: Side;

beforeAll(async () => {
  // The server's clock stands at LATER: the price changes made through it come after the imports.
  t = await startTestServer({ clock: new TestClock(Date.parse(LATER)) });
  const store = await openTestStore(t.dataPath);
  const sides: Side[] = [];
  try {
    const betaId = (await store.createWorkspace("beta", "Beta mill", NOW)).id;
    for (const [slug, marker, workspaceId, cereal] of [["default", "Alphamill", 1, 200], ["beta", "Betamill", betaId, 180]] as const) {
      const data = workspaceData(marker, cereal);
      await store.importIngredients(workspaceId, data.csv, "csv", { update: false, now: NOW });
      await store.importFormulas(workspaceId, readFormulaFile(data.formulas), { replace: false, now: NOW });
      // A key both define, each in its own words.
      await store.putNutrient(workspaceId, "CP", { name: `${marker} crude protein`, unit: "%", basis: "as-fed" });
      // Plans under the formulas' ids: one of this side only, one both have, each in its own words.
      const m = marker.toLowerCase();
      await store.importPlans({ workspaceId, keyId: null, now: NOW }, [
        { id: `${m}-starter`, body: { name: `${marker} plan`, lines: [{ formula: `${m}-starter`, tons: 100 }], supply: [{ name: `${marker} maize`, minTons: null, maxTons: 50 }] } },
        { id: "starter", body: { name: `${marker} shared plan`, lines: [{ formula: "starter", tons: 100 }], supply: [] } },
      ], false);
      // Lab analyses of a name of this side only and of the shared one, marked by their lab.
      const analysis = (name: string) => ({ name, input: { nutrients: { CP: 8 }, sampledAt: NOW, lot: null, lab: `${marker} lab` }, where: name });
      await store.importAnalyses(workspaceId, [analysis(`${marker} maize`), analysis("Maize")], { now: NOW, events: false });
      sides.push({ slug, marker, workspaceId, key: t.key({ write: true, workspace: slug }), only: data.only });
    }
  } finally {
    await store.close();
  }
  // A price change after the formulas were saved: each side's history, costs and report show its own moves.
  for (const [side, cereal] of [[sides[0]!, 200], [sides[1]!, 180]] as const) {
    const res = await t.request("PUT", `/v1/prices/${encodeURIComponent(`${side.marker} maize`)}`, { key: side.key, body: { price: cereal + 1 } });
    expect(res.status).toBe(200);
  }
  [alpha, beta] = sides as [Side, Side];
});
afterAll(async () => {
  await t.stop();
});

const paramsOf = (route: Route) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
/** Every keyed route: open ones (/healthz) hold no workspace data. */
const routes = table.filter((r) => accessOf(r) !== "open");
const methodsOf = (route: Route) => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]);
const fill = (route: Route, values: Record<string, string>) => route.path.replace(/:(\w+)/g, (_: string, p: string) => encodeURIComponent(values[p]!));
const isWrite = (method: string) => method === "POST" || method === "PUT";

/** Instants before, amid and after the data (price history: `at`, `since`, `from`, `to`). */
const INSTANTS = ["?at=2000-01-01T00:00:00Z&since=2000-01-01T00:00:00Z", `?at=${NOW}&since=${NOW}&from=${NOW}`, "?at=2100-01-01T00:00:00Z&to=2100-01-01T00:00:00Z"];

/** Routes whose `from` and `to` are not instants (the confidence curve's are probabilities): the instants' `from` and `to` are left off. */
const NOT_INSTANTS = new Set(["/v1/formulas/:id/confidence"]);

/** List filters naming the owner's data (a route ignores the ones it does not know). */
const filtersFor = (owner: Side) =>
  ["", `?category=${owner.marker}%20cereals`, `?species=${owner.marker}%20poultry`, `?subcategory=${owner.marker}%20starter`, "?inStock=false", ...INSTANTS];

/**
 * The paths of a route: as is (reads also with filters), or once per value of each parameter
 * (`exists` says in whose data), reads also with instants.
 */
function pathsOf(route: Route, owner: Side, read = true): { path: string; value: string | null; exists: "owner" | "both" | null }[] {
  const required = REQUIRED_QUERY[route.path];
  const paths = anyPathsOf(route, owner, read).map((p) => (NOT_INSTANTS.has(route.path) ? { ...p, path: p.path.replace(/&(from|to)=[^&]*/g, "") } : p));
  if (!required) return paths;
  return paths.map((p) => ({ ...p, path: p.path.includes("?") ? `${p.path}&${required}` : `${p.path}?${required}` }));
}

function anyPathsOf(route: Route, owner: Side, read: boolean): { path: string; value: string | null; exists: "owner" | "both" | null }[] {
  const params = paramsOf(route);
  if (params.length === 0) return (read ? filtersFor(owner) : [""]).map((query) => ({ path: route.path + query, value: null, exists: null }));
  for (const p of params) {
    if (!owner.only[p] || !SHARED[p]) throw new Error(`No test values for :${p} of ${route.path}: add them to workspaceData and SHARED`);
  }
  const sharedValues = Object.fromEntries(params.map((p) => [p, SHARED[p]![0]!]));
  const plain = [
    ...params.flatMap((p) => owner.only[p]!.map((v) => ({ path: fill(route, { ...sharedValues, [p]: v }), value: v, exists: "owner" as const }))),
    ...SHARED[params[0]!]!.map((v) => ({ path: fill(route, { ...sharedValues, [params[0]!]: v }), value: v, exists: "both" as const })),
  ];
  return read ? ["", ...INSTANTS].flatMap((query) => plain.map((p) => ({ ...p, path: p.path + query }))) : plain;
}

/**
 * What the owner sees on every readable path, without the per-request timestamp (nor a cost's `at`,
 * which is that timestamp when no instant is asked for), and how many events it has.
 */
async function snapshot(owner: Side) {
  const seen: Record<string, unknown> = {};
  for (const route of routes.filter((r) => r.method === "GET")) {
    for (const { path } of pathsOf(route, owner)) {
      const res = await t.request("GET", path, { key: owner.key });
      const body = await res.json();
      if (body.data?.at !== undefined && body.data.at === body.timestamp) delete body.data.at;
      delete body.timestamp;
      seen[path] = { status: res.status, body };
    }
  }
  return { seen, events: storedEvents(t.dataPath, owner.workspaceId).length };
}

describe("workspace isolation on every route", () => {
  test("the routes under test include reads and writes", () => {
    const all = routes.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`));
    expect(all).toEqual(
      expect.arrayContaining(["GET /v1/ingredients", "POST /v1/ingredients", "PUT /v1/prices/:name", "GET /v1/formulas/:id", "GET /v1/prices/:name", "GET /v1/formulas/:id/cost", "GET /v1/reports/cost-changes"]),
    );
    for (const write of all.filter((c) => isWrite(c.split(" ")[0]!))) expect(Object.keys(WRITE_BODIES)).toContain(write);
  });

  test("a key of another workspace sees none of the data: 404 for its names and ids, lists and details without it", async () => {
    for (const [viewer, owner] of [[beta, alpha], [alpha, beta]] as const) {
      for (const route of routes) {
        for (const method of methodsOf(route).filter((m) => !isWrite(m))) {
          for (const { path, value, exists } of pathsOf(route, owner)) {
            const res = await t.request(method, path, { key: viewer.key });
            const text = await res.text();
            const where = `${viewer.slug} key: ${method} ${path}`;
            expect({ where, status: res.status }).toEqual({ where, status: exists === "owner" ? 404 : 200 });
            if (exists === "owner" && method === "GET") expect(Object.keys(JSON.parse(text))).toEqual(["status", "message"]);
            // A 404 names what was asked for; anything else of the owner's would be a leak.
            const shown = value === null ? text : text.replaceAll(value, "");
            expect({ where, leaks: shown.includes(owner.marker) }).toEqual({ where, leaks: false });
            // A name both hold shows the viewer's own record.
            if (exists === "both" && method === "GET") expect({ where, own: text.includes(viewer.marker) }).toEqual({ where, own: true });
          }
        }
      }
    }
  });

  test("its writes change none of the data: 404 for the other's names, its own record for a shared name or a new one", async () => {
    for (const [viewer, owner] of [[beta, alpha], [alpha, beta]] as const) {
      const before = await snapshot(owner);
      // Routes with parameters first: a create below adds the other's name to the writer's own data.
      for (const route of [...routes].sort((a, b) => paramsOf(b).length - paramsOf(a).length)) {
        for (const method of methodsOf(route).filter(isWrite)) {
          const body = WRITE_BODIES[`${method} ${route.path}`]!(owner.only.name![0]!);
          for (const { path, exists } of pathsOf(route, owner, false)) {
            const res = await t.request(method, path, { key: viewer.key, body });
            const where = `${viewer.slug} key: ${method} ${path}`;
            // A PUT that creates makes the writer's own record where the other's name is: isolation is the owner's data unchanged.
            const expected = exists === "owner" ? (route.response.created ? 201 : 404) : method === "POST" ? 201 : 200;
            expect({ where, status: res.status }).toEqual({ where, status: expected });
          }
        }
      }
      expect(await snapshot(owner)).toEqual(before);
    }
    // The writes landed in the writer's own workspace.
    const mine = await (await t.request("GET", "/v1/ingredients/Maize", { key: beta.key })).json();
    expect(mine.data).toMatchObject({ price: 1, category: "Betamill cereals" });
    expect((await t.request("GET", `/v1/ingredients/${encodeURIComponent("Alphamill maize")}`, { key: beta.key })).status).toBe(200);
  });
});
