/**
 * Issue 15, item 1: a full disk. SQLite's max_page_count stands in for the disk (the file may not grow by
 * a page), on the server's own connection here and through FEEDBASE_TEST_MAX_PAGES for the CLI, so the
 * test runs on any machine without a small filesystem.
 */
import type { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isoTime } from "../src/domain/time.ts";
import { openDatabase } from "../src/store/db.ts";
import { listDeliveries } from "../src/store/delivery-admin.ts";
import { createWebhook } from "../src/store/webhooks.ts";
import { DEFAULT_TUNING } from "../src/webhooks/delivery-tuning.ts";
import { generateSecret } from "../src/webhooks/secret.ts";
import { cli, eventually, startTestServer, tempDir } from "./helpers/harness.ts";
import { gate, startRecorder } from "./helpers/webhooks.ts";

/** Freeze the file at its current size on this connection (SQLite never lowers the cap below it). */
const fillDisk = (db: Database) => db.run("PRAGMA max_page_count = 1");
const freeDisk = (db: Database) => db.run("PRAGMA max_page_count = 1073741823");
const pageCount = (db: Database) => (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;

/** A create body of about 2 KB, so the file runs out of pages after a few. */
const bigIngredient = (i: number) => ({
  name: `Filler ${i}`,
  price: 100,
  nutrients: Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`nutrient_${n}_${"x".repeat(16)}`, n])),
});

describe("a full disk", () => {
  test("writes answer 503 Storage full with Retry-After, reads go on, /readyz says storage full; all recovers once there is space", async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      const ready = await fetch(t.url + "/readyz");
      expect(ready.status).toBe(200);
      expect(await ready.text()).toBe("ready");

      fillDisk(t.service.db!);
      let created = 0;
      let refused: Response | null = null;
      for (let i = 0; i < 500 && refused === null; i++) {
        const res = await t.request("POST", "/v1/ingredients", { key, body: bigIngredient(i) });
        if (res.status === 201) created++;
        else refused = res;
      }
      expect(refused?.status).toBe(503);
      expect(await refused!.json()).toEqual({ status: "error", message: "Storage full" });
      expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused!.headers.get("x-request-id")).toBeTruthy();
      // A price change that needs a new page is refused the same way, and nothing of it is kept.
      const put = await t.request("PUT", "/v1/prices/Filler%200", { key, body: { price: 5 } });
      expect([200, 503]).toContain(put.status);

      const list = await t.request("GET", "/v1/ingredients", { key });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { count: number }).count).toBe(created);
      expect((await fetch(t.url + "/healthz")).status).toBe(200);
      let notReady: Record<string, unknown> = {};
      await eventually(async () => {
        const res = await fetch(t.url + "/readyz");
        if (res.status !== 503) return false;
        notReady = (await res.json()) as Record<string, unknown>;
        return true;
      });
      expect(notReady).toEqual({ status: "error", message: "Not ready: storage full", failed: ["storage full"] });
      // /readyz is not logged, like /healthz.
      expect(t.logs().some((l) => l.path === "/readyz")).toBe(false);

      freeDisk(t.service.db!);
      expect((await t.request("POST", "/v1/ingredients", { key, body: bigIngredient(1000) })).status).toBe(201);
      await eventually(async () => (await fetch(t.url + "/readyz")).status === 200);
    } finally {
      await t.stop();
    }
  }, 30_000);

  test("a delivery outcome that cannot be written pauses deliveries (growing pauses, no tight loop); they resume by themselves, none lost, in order", async () => {
    // The real pause grows to a minute; the test shortens it to see it grow within a second or two.
    expect(DEFAULT_TUNING.outcomePauseMaxMs).toBeGreaterThanOrEqual(30_000);
    const t = await startTestServer({ webhooks: { outcomePauseMs: 100, outcomePauseMaxMs: 800 } });
    const hold = gate();
    const receiver = startRecorder(async () => {
      await hold.wait;
      return new Response(null, { status: 500, statusText: "Internal Server Error" });
    });
    const db = openDatabase(t.dataPath, { create: false });
    try {
      const webhookId = createWebhook(db, { workspaceId: 1, url: receiver.url, secret: generateSecret(), events: ["price.updated"], now: isoTime(Date.now()) });
      const key = t.key({ write: true });
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: "Maize", price: 100 } })).status).toBe(201);
      for (const price of [101, 102, 103, 104]) expect((await t.request("PUT", "/v1/prices/Maize", { key, body: { price } })).status).toBe(200);
      // One ingredient: the first event is in flight (held), the other three wait behind it.
      await eventually(() => receiver.requests.length === 1);

      // The disk fills up: the deliveries' page has no byte left, so an outcome (which grows its row) needs a new page.
      fillDisk(t.service.db!);
      fillDisk(db);
      const rows = listDeliveries(db, { webhookId, limit: 10 });
      expect(rows).toHaveLength(4);
      const pad = db.query("UPDATE deliveries SET created_at = created_at || ? WHERE id = ?");
      let low = 0;
      let high = 4096;
      const original = (db.query("SELECT created_at FROM deliveries WHERE id = ?").get(rows[3]!.id) as { created_at: string }).created_at;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        db.query("UPDATE deliveries SET created_at = ? WHERE id = ?").run(original, rows[3]!.id);
        try {
          pad.run(" ".repeat(mid), rows[3]!.id);
          low = mid;
        } catch {
          high = mid - 1;
        }
      }
      db.query("UPDATE deliveries SET created_at = ? WHERE id = ?").run(original + " ".repeat(low), rows[3]!.id);
      const pagesWhenFull = pageCount(db);

      const fullSince = performance.now();
      hold.open();
      await eventually(() => t.logs().filter((l) => l.msg === "webhook outcome could not be recorded; deliveries paused").length >= 5, 10_000);
      const fullFor = performance.now() - fullSince;
      const pauses = t
        .logs()
        .filter((l) => l.msg === "webhook outcome could not be recorded; deliveries paused")
        .map((l) => l.pauseMs);
      expect(pauses.slice(0, 5)).toEqual([100, 200, 400, 800, 800]);
      // Without the pause the loop sent the same delivery again at once, thousands of times a second.
      const sentWhileFull = receiver.requests.length;
      expect(sentWhileFull).toBeLessThanOrEqual(2 + Math.ceil(fullFor / 100));
      expect(pageCount(db)).toBe(pagesWhenFull);
      expect(listDeliveries(db, { webhookId, status: "pending", limit: 10 })).toHaveLength(4);

      // Space is freed: the next attempt after the pause is written and the rest follow, in order, without a restart.
      receiver.answer(() => new Response(null, { status: 204 }));
      freeDisk(t.service.db!);
      await eventually(() => listDeliveries(db, { webhookId, status: "delivered", limit: 10 }).length === 4, 10_000);
      expect(t.logs().some((l) => l.msg === "webhook outcomes recorded again; deliveries resumed")).toBe(true);
      const delivered = receiver.requests.slice(sentWhileFull).map((r) => r.json.new_price);
      expect(delivered.filter((p, i) => delivered.indexOf(p) === i)).toEqual([101, 102, 103, 104]);
    } finally {
      hold.open();
      db.close();
      await receiver.stop();
      await t.stop();
    }
  }, 30_000);

  test("an admin command on a full disk refuses with one line, exit 1, and writes nothing", async () => {
    const tmp = tempDir();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const db = openDatabase(tmp.dataPath, { create: false });
      const before = (db.query("SELECT count(*) AS n FROM ingredients").get() as { n: number }).n;
      db.close();
      const csv = join(tmp.dir, "many.csv");
      const lines = ["name,category,price,inStock,dm"];
      for (let i = 0; i < 3000; i++) lines.push(`Imported ${i},Grain,${100 + i},true,88`);
      writeFileSync(csv, lines.join("\n") + "\n");

      const full = await cli(["import", "ingredients", csv, "--data", tmp.dataPath], { env: { FEEDBASE_TEST_MAX_PAGES: "1" } });
      expect(full.stderr).toBe("error: The data file's disk is full: nothing was written; free space and run the command again\n");
      expect(full.code).toBe(1);
      const after = openDatabase(tmp.dataPath, { create: false });
      expect((after.query("SELECT count(*) AS n FROM ingredients").get() as { n: number }).n).toBe(before);
      after.close();

      const roomy = await cli(["import", "ingredients", csv, "--data", tmp.dataPath]);
      expect(roomy.code).toBe(0);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);
});
