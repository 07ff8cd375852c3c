/**
 * PostgreSQL only (make test-postgres): `feedbase copy-to` moves a mill's whole SQLite file into an
 * empty database. Every row arrives as it was (compared table by table, value by value, not only
 * counted), the admin commands show the same on both sides, identity sequences continue after the
 * copied ids, a non-empty target is refused without a change, and the password is never printed.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SQL } from "bun";
import { PRICE_ENTRIES } from "../../src/store/sqlite/price-history.ts";
import { cli, eventually, spawnServe, tempDir } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";
import { independentHex, startRecorder } from "../helpers/webhooks.ts";
import { copiedTableList } from "../helpers/schema.ts";

const COPIED_TABLES = copiedTableList();

const open: SQL[] = [];
afterAll(async () => {
  for (const sql of open) await sql.close();
});

/** A target database with a password in its URL (the test cluster trusts local connections, so any password works). */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = "never-print-me";
  return u.href;
}

/** Every row of every copied table, in key order, as plain values (PostgreSQL's BIGINT read back as numbers). */
async function pgRows(url: string): Promise<Record<string, unknown[]>> {
  const sql = new SQL(url, { max: 1 });
  open.push(sql);
  const out: Record<string, unknown[]> = {};
  for (const table of COPIED_TABLES) {
    const rows = (await sql.unsafe(`SELECT * FROM ${table} ORDER BY ${orderOf(table)}`)) as Record<string, unknown>[];
    out[table] = rows.map(({ claimed_by: _, claimed_until: __, ...row }) =>
      table === "deliveries" ? { ...row, next_attempt_at: Number(row.next_attempt_at) } : row,
    );
  }
  return out;
}

function sqliteRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true, strict: true });
  try {
    // The file's history is the indexed table and the log not yet folded into it, one table on PostgreSQL.
    const source = (table: string) => (table === "price_history" ? `(${PRICE_ENTRIES})` : table);
    return Object.fromEntries(COPIED_TABLES.map((table) => [table, db.query(`SELECT * FROM ${source(table)} ORDER BY ${orderOf(table)}`).all()]));
  } finally {
    db.close();
  }
}

const orderOf = (table: string) =>
  ({ formulas: "workspace_id, id", nutrients: "workspace_id, key", plans: "workspace_id, id", formula_lines: "workspace_id, formula_id, position", delivery_attempts: "delivery_id, number", api_keys: "id", webhooks: "id", deliveries: "id" })[table] ?? "id";

/** The table copy-to prints: table → [SQLite, PostgreSQL]. */
function printedCounts(stdout: string): Record<string, [number, number]> {
  return Object.fromEntries(
    stdout
      .split("\n")
      .filter((line) => (COPIED_TABLES as readonly string[]).includes(line.split(/\s+/)[0]!))
      .map((line) => {
        const [table, sqlite, postgres] = line.split(/\s+/);
        return [table!, [Number(sqlite), Number(postgres)]];
      }),
  );
}

describe("feedbase copy-to", () => {
  test("the demo file: every row of every table arrives as it was, the demo's keys list the same, sequences continue after the copied ids", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    try {
      expect((await cli(["demo", "--data", mill])).code).toBe(0);
      const url = withPassword(databaseFor(tmp.dataPath)!);
      const copy = await cli(["copy-to", url, "--data", mill]);
      expect(copy.stderr.split("\n").filter(Boolean)).toEqual(COPIED_TABLES.map((t) => expect.stringMatching(new RegExp(`^progress: copied ${t} \\(\\d[\\d,]* rows\\)$`))));
      expect(copy.code).toBe(0);
      expect(copy.stdout + copy.stderr).not.toContain("never-print-me");
      expect(copy.stdout).toContain("postgres://feedbase:***@");
      const counts = printedCounts(copy.stdout);
      expect(Object.keys(counts)).toEqual([...COPIED_TABLES]);
      for (const [sqlite, postgres] of Object.values(counts)) expect(postgres).toBe(sqlite);
      expect(counts.ingredients![0]).toBeGreaterThan(40);
      expect(counts.price_history![0]).toBeGreaterThan(500);
      expect(await pgRows(url)).toEqual(sqliteRows(mill));

      for (const args of [["key", "list", "--json"], ["workspace", "list", "--json"]]) {
        const onFile = await cli([...args, "--data", mill]);
        const onPg = await cli([...args, "--database", url]);
        expect(onPg.code).toBe(0);
        expect(onPg.stdout).toBe(onFile.stdout);
      }
      // New rows continue after the copied ids instead of colliding with them.
      for (const table of ["workspaces", "ingredients", "price_history", "events"]) {
        const [max, next] = psql(url, `SELECT coalesce(max(id), 0), nextval(pg_get_serial_sequence('${table}', 'id')) FROM ${table}`).trim().split("|").map(Number);
        expect(next).toBe(max! + 1);
      }
      expect((await cli(["workspace", "create", "north", "--database", url])).code).toBe(0);
    } finally {
      tmp.cleanup();
    }
  });

  test("a file with price history, formulas, webhooks, events and pending, delivered and failed deliveries with their attempts", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    const receiver = startRecorder();
    try {
      const demo = await cli(["demo", "--data", mill]);
      const writeKey = /Write key: (fbk_\w+)/.exec(demo.stdout)![1]!;
      // One receiver that accepts, one address where nobody listens (its deliveries stay pending, then fail).
      expect((await cli(["webhook", "add", receiver.url, "--data", mill])).code).toBe(0);
      expect((await cli(["webhook", "add", "http://127.0.0.1:9/", "--events", "price.updated,formula.cost_changed", "--data", mill])).code).toBe(0);
      const server = await spawnServe(mill, { args: ["--retry-schedule", "3600"] });
      try {
        for (const [name, price] of [["Maize", 231], ["Wheat", 240], ["Maize", 229]] as const) {
          const r = await fetch(`${server.url}/v1/prices/${name}`, { method: "PUT", headers: { "X-API-Key": writeKey }, body: JSON.stringify({ price }) });
          expect(r.status).toBe(200);
        }
        await eventually(() => receiver.requests.length === 3, 15_000);
        const lite = new Database(mill, { readonly: true });
        await eventually(() => (lite.query("SELECT count(*) AS n FROM delivery_attempts").get() as { n: number }).n >= 4, 15_000);
        lite.close();
      } finally {
        await server.stop();
      }
      // One of the pending ones given up, so all three statuses travel.
      const lite = new Database(mill);
      lite.run("UPDATE deliveries SET status = 'failed' WHERE id = (SELECT min(id) FROM deliveries WHERE status = 'pending')");
      lite.close();

      const url = databaseFor(tmp.dataPath)!;
      const copy = await cli(["copy-to", url, "--data", mill]);
      expect(copy.code).toBe(0);
      const counts = printedCounts(copy.stdout);
      for (const table of ["webhooks", "events", "deliveries", "delivery_attempts", "formulas", "formula_lines", "price_history"]) expect(counts[table]![0]).toBeGreaterThan(0);
      for (const [sqlite, postgres] of Object.values(counts)) expect(postgres).toBe(sqlite);
      const rows = await pgRows(url);
      expect(rows).toEqual(sqliteRows(mill));
      expect(new Set((rows.deliveries as { status: string }[]).map((d) => d.status))).toEqual(new Set(["pending", "delivered", "failed"]));

      // The admin commands read the same from both.
      for (const args of [["webhook", "list", "--json"], ["webhook", "deliveries", "--json"], ["key", "list", "--json"]]) {
        const onFile = await cli([...args, "--data", mill]);
        const onPg = await cli([...args, "--database", url]);
        expect(onPg.code).toBe(0);
        expect(onPg.stdout).toBe(onFile.stdout);
      }
      const someId = (rows.delivery_attempts as { delivery_id: string }[])[0]!.delivery_id;
      const show = ["webhook", "deliveries", "show", someId, "--json"];
      expect((await cli([...show, "--database", url])).stdout).toBe((await cli([...show, "--data", mill])).stdout);
    } finally {
      await receiver.stop();
      tmp.cleanup();
    }
  });

  test("a target holding data is refused (exit 1) and left as it was", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    try {
      expect((await cli(["demo", "--data", mill])).code).toBe(0);
      const url = databaseFor(tmp.dataPath)!;
      expect((await cli(["key", "create", "--label", "already here", "--database", url])).code).toBe(0);
      const before = await pgRows(url);
      const copy = await cli(["copy-to", withPassword(url), "--data", mill]);
      expect(copy.code).toBe(1);
      expect(copy.stderr).toBe("error: The target database is not empty (1 row in api_keys): copy-to fills only a new, empty database (createdb a new one)\n");
      expect(await pgRows(url)).toEqual(before);

      expect((await cli(["workspace", "create", "north", "--database", url])).code).toBe(0);
      psql(url, "DELETE FROM api_keys");
      const again = await cli(["copy-to", url, "--data", mill]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('(2 workspaces, where a new one holds only "default")');
    } finally {
      tmp.cleanup();
    }
  });

  test("after the move the file's keys answer over the server on the database, and its pending deliveries are delivered there", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    const down = startRecorder();
    const port = Number(new URL(down.url).port);
    await down.stop();
    let receiver: ReturnType<typeof startRecorder> | undefined;
    try {
      const demo = await cli(["demo", "--data", mill]);
      const readKey = /Read key: +(fbk_\w+)/.exec(demo.stdout)![1]!;
      const writeKey = /Write key: (fbk_\w+)/.exec(demo.stdout)![1]!;
      const hook = await cli(["webhook", "add", `http://127.0.0.1:${port}/`, "--json", "--data", mill]);
      const { id: webhookId, secret } = JSON.parse(hook.stdout) as { id: string; secret: string };
      // The receiver is down while the file is served: both deliveries wait, an hour away.
      const server = await spawnServe(mill, { args: ["--retry-schedule", "3600"] });
      try {
        for (const price of [233, 234]) {
          const r = await fetch(`${server.url}/v1/prices/Maize`, { method: "PUT", headers: { "X-API-Key": writeKey }, body: JSON.stringify({ price }) });
          expect(r.status).toBe(200);
        }
        const lite = new Database(mill, { readonly: true });
        await eventually(() => (lite.query("SELECT count(*) AS n FROM delivery_attempts").get() as { n: number }).n >= 1, 15_000);
        lite.close();
      } finally {
        await server.stop();
      }
      const url = databaseFor(tmp.dataPath)!;
      expect((await cli(["copy-to", url, "--data", mill])).code).toBe(0);

      receiver = startRecorder(() => new Response(null, { status: 204 }), { port });
      const moved = await spawnServe(tmp.dataPath);
      try {
        const health = await fetch(`${moved.url}/v1/health`, { headers: { "X-API-Key": readKey } });
        expect(health.status).toBe(200);
        const refused = await fetch(`${moved.url}/v1/prices/Maize`, { method: "PUT", headers: { "X-API-Key": readKey }, body: JSON.stringify({ price: 1 }) });
        expect(refused.status).toBe(403);
        // The first waits an hour by the file's schedule (the second, never tried, waits behind it): made due
        // now on the database, both are sent by its server, in order.
        const retry = await cli(["webhook", "retry", "--pending", "--webhook", webhookId, "--database", url]);
        expect(retry.stdout).toBe("Made 1 delivery due now\n");
        await eventually(() => receiver!.requests.length === 2, 15_000);
        expect(receiver.requests.map((r) => r.json.new_price)).toEqual([233, 234]);
        // Signed with the secret that moved with the webhook.
        for (const r of receiver.requests) {
          expect(r.headers["x-webhook-signature"]).toBe(independentHex(secret, r.bytes));
        }
        await eventually(async () => (await cli(["webhook", "list", "--json", "--database", url])).stdout.includes('"pending":0'), 15_000);
        // An admin command's commit reaches the running server (through its notification), no restart.
        const readKeyId = /Read key: +fbk_\w+ +\((key_\w+)/.exec(demo.stdout)![1]!;
        expect((await cli(["key", "deactivate", readKeyId, "--database", url])).code).toBe(0);
        await eventually(async () => (await fetch(`${moved.url}/v1/health`, { headers: { "X-API-Key": readKey } })).status === 401, 5_000);
      } finally {
        await moved.stop();
      }
    } finally {
      await receiver?.stop();
      tmp.cleanup();
    }
  });
});
