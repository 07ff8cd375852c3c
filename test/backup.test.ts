import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { adminBesideWrites } from "./helpers/beside-writes.ts";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";

let t: TestServer;
let write: string;
beforeAll(async () => {
  t = await startTestServer();
  write = t.key({ write: true });
  for (const name of ["Maize", "Wheat", "Barley", "Sorghum"]) {
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name, price: 100 } })).status).toBe(201);
  }
});
afterAll(() => t.stop());

describe("feedbase backup", () => {
  test("a copy taken under writes holds every change acknowledged before it began, and is private", async () => {
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    // Four writers keep price changes flowing during the backup.
    const writers = ["Maize", "Wheat", "Barley", "Sorghum"].map(async (name) => {
      while (!stop) {
        const price = 100 + ++n;
        const res = await t.request("PUT", `/v1/prices/${name}`, { key: write, body: { price } });
        expect(res.status).toBe(200);
        acknowledged.push(`${name}:${price}`);
      }
    });
    while (acknowledged.length < 40) await Bun.sleep(5);
    const before = [...acknowledged];
    const target = join(t.dataPath, "..", "backup.db");
    const r = await cli(["backup", target, "--data", t.dataPath]);
    stop = true;
    await Promise.all(writers);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Backed up");
    expect(statSync(target).mode & 0o077).toBe(0);

    const copy = new Database(target, { readonly: true });
    const events = copy.query("SELECT payload FROM events WHERE type = 'price.updated'").all() as { payload: string }[];
    const inCopy = new Set(events.map((e) => {
      const p = JSON.parse(e.payload);
      return `${p.ingredient}:${p.new_price}`;
    }));
    for (const change of before) expect(inCopy.has(change)).toBe(true);
    expect((copy.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    copy.close();
  });

  test("an existing file is refused without --force and replaced with it", async () => {
    const target = join(t.dataPath, "..", "existing.db");
    writeFileSync(target, "not a database");
    const refused = await cli(["backup", target, "--data", t.dataPath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--force");
    const forced = await cli(["backup", target, "--force", "--data", t.dataPath]);
    expect(forced.code).toBe(0);
    const copy = new Database(target, { readonly: true });
    expect((copy.query("SELECT count(*) AS n FROM ingredients").get() as { n: number }).n).toBe(4);
    copy.close();
  });
});

describe("backup beside the admin commands and concurrent writes", () => {
  test("key create, import and backup run beside concurrent writes: no busy error, nothing lost, no request stalled", async () => {
    const server = await startTestServer();
    try {
      await adminBesideWrites(server, (dir) => [["backup", join(dir, "backup.db"), "--data", server.dataPath]]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
