/**
 * PostgreSQL only (make test-postgres): `serve` on PostgreSQL answers exactly as on SQLite. The same
 * requests, at the same injected instants, go to a server on an SQLite file and to one on a fresh
 * database, and the bodies are compared whole; webhooks reach a real receiver, signed; changes made in
 * the database by another process (as a command makes them) are seen within 1 s, and still seen while
 * the server's listening connection is lost.
 */
import { SQL } from "bun";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/log.ts";
import { startService, type RunningService } from "../../src/service.ts";
import { openDatabase } from "../../src/store/db.ts";
import { saveFormula } from "../../src/store/formulas.ts";
import { createKey } from "../../src/store/keys.ts";
import type { FormulaDetail } from "../../src/schemas/formulas.ts";
import { generateSecret } from "../../src/webhooks/secret.ts";
import { eventually, spawnServe, startTestServer, tempDir, TestClock, type TestServer } from "../helpers/harness.ts";
import { databaseFor } from "../helpers/postgres.ts";
import { independentHex, startRecorder } from "../helpers/webhooks.ts";

/** Names whose order differs between a case-folding, an accent-aware and a byte order. */
const NAMES = ["apple", "Apple", "APPLE", "_under", "a_b", "ab", "Ab", "Éclair", "eclair", "Eclair", "Zebra", "zebra", "ä", "Ä", "b", "[x]", "a b", "a-b", "Z"];
const CATEGORIES = ["cereals", "Cereals", "_misc", "Énergie", "energie", "Z"];

interface Side {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
}

/** The server on SQLite, with a write key made in its file. */
async function sqliteSide(clock: TestClock): Promise<Side & { service: RunningService; db: ReturnType<typeof openDatabase>; cleanup(): Promise<void> }> {
  const dir = tempDirSqlite();
  const service = await startService({ data: { kind: "sqlite", path: dir.path }, host: "127.0.0.1", port: 0, clock: clock.now, logger: createLogger(() => {}, clock.now) });
  const db = openDatabase(dir.path, { create: false });
  const key = createKey(db, { workspaceId: 1, write: true, rateLimit: 1_000_000, label: null, now: new Date(clock.ms).toISOString() }).key;
  return {
    service,
    db,
    request: (method, path, body) => send(service.fetch, service.url.href, key, method, path, body),
    async cleanup() {
      db.close();
      await service.stop();
      dir.cleanup();
    },
  };
}

/** A data file outside the harness's PostgreSQL mode, which would make every temp file a database. */
function tempDirSqlite(): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "feedbase-pgserve-"));
  return { path: join(dir, "feedbase.db"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function send(fetch: RunningService["fetch"], base: string, key: string, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: { "X-API-Key": key } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(new Request(new URL(path, base).href, init));
  return { status: res.status, text: await res.text() };
}

let clock: TestClock;
let pg: TestServer & { sql: SQL; writeKey: string };
let lite: Awaited<ReturnType<typeof sqliteSide>>;
const both = () => [lite as Side, { request: (m: string, p: string, b?: unknown) => pgRequest(m, p, b) } as Side];
const pgRequest = async (method: string, path: string, body?: unknown) => {
  const res = await pg.request(method, path, { key: pg.writeKey, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: await res.text() };
};

beforeEach(async () => {
  clock = new TestClock();
  const server = await startTestServer({ clock });
  const url = databaseFor(server.dataPath)!;
  pg = Object.assign(server, { sql: new SQL(url, { max: 2 }), writeKey: server.key({ write: true }) });
  lite = await sqliteSide(clock);
});
afterEach(async () => {
  await pg.sql.close();
  await pg.stop();
  await lite.cleanup();
});

/** Each request to both servers, in turn: the statuses and bodies must be the same. */
async function same(method: string, path: string, body?: unknown): Promise<string> {
  const [a, b] = await Promise.all(both().map((s) => s.request(method, path, body)));
  expect({ path, status: b!.status, body: b!.text }).toEqual({ path, status: a!.status, body: a!.text });
  return a!.text;
}

describe("serve on PostgreSQL answers as on SQLite", () => {
  test("ingredient lists, details, prices and pools in the same order for names that sort differently by case, '_' and accents", async () => {
    for (const [i, name] of NAMES.entries()) {
      await same("POST", "/v1/ingredients", { name, category: CATEGORIES[i % CATEGORIES.length], price: 100 + i * 0.125, inStock: i % 3 !== 0, nutrients: { protein: i / 3 } });
    }
    await same("POST", "/v1/ingredients", { name: "apple", price: 1 }); // 409 on both
    const list = JSON.parse(await same("GET", "/v1/ingredients")) as { data: { name: string }[]; pools: string[] };
    // The order is SQLite's NOCASE then bytes, not PostgreSQL's own collation.
    expect(list.data.map((r) => r.name).slice(0, 6)).toEqual(["[x]", "_under", "a b", "a-b", "a_b", "Ab"]);
    expect(list.pools).toEqual(["_misc", "Cereals", "cereals", "energie", "Z", "Énergie"]);
    await same("GET", "/v1/ingredients?category=Cereals");
    await same("GET", "/v1/ingredients?inStock=false");
    await same("GET", "/v1/prices");
    await same("GET", "/v1/prices?inStock=true&category=cereals");
    for (const name of ["Éclair", "a_b", "APPLE", "nope"]) await same("GET", `/v1/ingredients/${encodeURIComponent(name)}`);
  });

  test("history, prices at an instant, formula cost, cost changes and events answer the same JSON", async () => {
    for (const [name, price] of [["Maize", 215.5], ["Soybean meal 48%", 420.25], ["Limestone", 41]] as const) {
      await same("POST", "/v1/ingredients", { name, category: "Feed", price, inStock: true, nutrients: {} });
    }
    const formula: FormulaDetail = {
      id: "broiler-starter",
      name: "Broiler starter",
      species: "Poultry",
      subcategory: "Starter",
      batchSize: 1000,
      totalCost: 282.4,
      createdAt: "2026-11-21T11:00:00.000Z",
      ingredients: [
        { name: "Maize", percent: 60, amount: 600, price: 215.5, cost: 129.3 },
        { name: "Soybean meal 48%", percent: 35, amount: 350, price: 420.25, cost: 147.09 },
        { name: "Limestone", percent: 5, amount: 50, price: 41, cost: 2.05 },
      ],
      nutrients: { protein: 21.7 },
      constraints: { nutrients: [], ingredients: [], ratios: [] },
    };
    saveFormula(lite.db, 1, formula);
    await insertFormula(pg.sql, formula);
    const instants: string[] = [];
    for (const [step, price] of [227.125, 219, 219, 230.75].entries()) {
      clock.advance(3_600_000);
      instants.push(new Date(clock.ms).toISOString());
      await same("PUT", "/v1/ingredients/Maize", { price, ...(step === 2 ? { inStock: false } : {}) });
    }
    await same("PUT", "/v1/prices/Limestone", { price: 44.333 });
    await same("GET", "/v1/prices/Maize");
    await same("GET", `/v1/prices/Maize?from=${instants[1]}&to=${instants[3]}`);
    await same("GET", `/v1/prices?at=${instants[1]}`);
    await same("GET", "/v1/prices?at=2026-11-21T11:59:59.999Z");
    await same("GET", "/v1/formulas");
    await same("GET", "/v1/formulas/broiler-starter");
    await same("GET", "/v1/formulas/broiler-starter/cost");
    await same("GET", `/v1/formulas/broiler-starter/cost?at=${instants[0]}`);
    await same("GET", "/v1/reports/cost-changes");
    await same("GET", `/v1/reports/cost-changes?since=${instants[1]}`);
    await same("GET", "/v1/events");
    await same("GET", "/v1/events?after=2&limit=2");
    await same("POST", "/v1/formulas/broiler-starter/optimize", {});
  });
});

describe("serve on PostgreSQL", () => {
  test("a PUT that changes a price records its event and delivers it, signed, to a real receiver", async () => {
    const receiver = startRecorder();
    try {
      const secret = generateSecret();
      await pg.sql`INSERT INTO webhooks (id, workspace_id, url, secret, events, enabled, created_at)
        VALUES ('wh_pgserve000001', 1, ${receiver.url}, ${secret}, NULL, 1, '2026-11-21T12:00:00.000Z')`;
      expect((await pgRequest("POST", "/v1/ingredients", { name: "Maize", price: 215 })).status).toBe(201);
      expect((await pgRequest("PUT", "/v1/prices/Maize", { price: 219.5 })).status).toBe(200);
      await eventually(() => receiver.requests.length === 2);
      const [added, updated] = receiver.requests;
      expect(added!.json).toMatchObject({ ingredient: "Maize", price: 215 });
      expect(updated!.json).toEqual({ ingredient: "Maize", old_price: 215, new_price: 219.5, timestamp: new Date(clock.ms).toISOString() });
      expect(updated!.headers["x-webhook-signature"]).toBe(independentHex(secret, updated!.bytes));
      const events = JSON.parse((await pgRequest("GET", "/v1/events")).text) as { data: { id: number; type: string }[] };
      expect(events.data.map((e) => e.type)).toEqual(["ingredient.added", "price.updated"]);
      expect(updated!.headers["x-webhook-event-id"]).toBe(String(events.data[1]!.id));
      // Each outcome is recorded with its attempt, and no claim is left behind.
      await eventually(async () => (await pg.sql`SELECT 1 FROM deliveries WHERE status = 'delivered' AND claimed_by IS NULL`).length === 2);
      expect((await pg.sql`SELECT count(*)::int AS n FROM delivery_attempts`)[0].n).toBe(2);
    } finally {
      await receiver.stop();
    }
  });

  test("serve keeps --database-connections connections to the database open: 10 unless told", async () => {
    // The pool's connections carry the instance's name; the listening connection has none of its own.
    const pooled = async (url: string) => {
      const observer = new SQL(url, { max: 1 });
      try {
        const rows = await observer`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%:%:%'`;
        return rows[0].n as number;
      } finally {
        await observer.close();
      }
    };
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      const byDefault = await startService({ data: { kind: "postgres", url }, host: "127.0.0.1", port: 0, logger: createLogger(() => {}) });
      try {
        await eventually(async () => (await pooled(url)) === 10);
      } finally {
        await byDefault.stop();
      }
      await eventually(async () => (await pooled(url)) === 0);
      const told = await spawnServe(tmp.dataPath, { args: ["--database-connections", "4"] });
      try {
        await eventually(async () => (await pooled(url)) === 4);
        expect(told.output()).not.toContain('"level":"error"');
      } finally {
        expect(await told.stop()).toBe(0);
      }
    } finally {
      tmp.cleanup();
    }
  });

  test("/readyz is 200 on a healthy database", async () => {
    const res = await pg.request("GET", "/readyz", { key: null });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ready");
  });

  test("a key deactivated in the database by another process, as the CLI does, is refused within 1 s", async () => {
    const key = pg.key();
    expect((await pg.request("GET", "/v1/ingredients", { key })).status).toBe(200);
    await pg.sql.begin(async (tx) => {
      await tx`UPDATE api_keys SET active = 0`;
      await tx`SELECT pg_notify('feedbase', '')`;
    });
    await eventually(async () => (await pg.request("GET", "/v1/ingredients", { key })).status === 401, 1000);
  });

  test("a change made while the listening connection is lost is served at once, not from cache", async () => {
    expect((await pgRequest("POST", "/v1/ingredients", { name: "Maize", price: 215 })).status).toBe(201);
    expect(JSON.parse((await pgRequest("GET", "/v1/ingredients/Maize")).text).data.price).toBe(215);
    await pg.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`;
    await eventually(() => pg.logText().includes("lost the PostgreSQL notification connection"));
    // No notification: only a generation that moves while the listener is away (or when it is back) shows it.
    await pg.sql`UPDATE ingredients SET price = 230 WHERE name = 'Maize'`;
    expect(JSON.parse((await pgRequest("GET", "/v1/ingredients/Maize")).text).data.price).toBe(230);
  });
});

/** A saved formula written as PostgreSQL's admin store writes one (the API cannot save formulas). */
async function insertFormula(sql: SQL, f: FormulaDetail): Promise<void> {
  await sql`INSERT INTO formulas (workspace_id, id, name, species, subcategory, batch_size, total_cost, created_at, nutrients, constraints)
    VALUES (1, ${f.id}, ${f.name}, ${f.species}, ${f.subcategory}, ${f.batchSize}, ${f.totalCost}, ${f.createdAt}, ${JSON.stringify(f.nutrients)}, ${JSON.stringify(f.constraints)})`;
  for (const [position, row] of f.ingredients.entries()) {
    await sql`INSERT INTO formula_lines (workspace_id, formula_id, position, ingredient, percent, amount, price, cost)
      VALUES (1, ${f.id}, ${position}, ${row.name}, ${row.percent}, ${row.amount}, ${row.price}, ${row.cost})`;
  }
}

