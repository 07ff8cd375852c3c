import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../src/store/db.ts";
import { updatePrice } from "../src/store/ingredient-changes.ts";
import { DataVersion } from "../src/store/data-version.ts";
import { transaction } from "../src/store/transaction.ts";
import { startTestServer, type TestServer } from "./helpers/harness.ts";

/**
 * The server learns of another connection's commit from the header of SQLite's WAL index (the -shm
 * file) and asks `PRAGMA data_version` only when that header moved (src/store/data-version.ts). Every
 * way a commit can land in the WAL must move it: appended frames, a WAL that restarts from its first
 * frame after a full checkpoint (same file size, frames overwritten in place), a WAL truncated to zero.
 */
let t: TestServer;
let read: string;
let write: string;
beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  write = t.key({ write: true });
  expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name: "Maize", price: 100 } })).status).toBe(201);
});
afterAll(() => t.stop());

const price = async () => (await (await t.request("GET", "/v1/prices/Maize", { key: read })).json()).data.price;

const CHECKPOINTS = ["", "PASSIVE", "RESTART", "TRUNCATE", "FULL"] as const;

describe("another connection's commits (as an admin command makes)", () => {
  test("are seen on the next request, whatever checkpoint came before them", async () => {
    const other = openDatabase(t.dataPath, { create: false });
    try {
      let expected = 100;
      for (let round = 0; round < 60; round++) {
        expect(await price()).toBe(expected); // the answer is cached for this generation now
        const checkpoint = CHECKPOINTS[round % CHECKPOINTS.length]!;
        if (checkpoint !== "") other.run(`PRAGMA wal_checkpoint(${checkpoint})`);
        expected = 200 + round;
        if (round % 3 === 2) {
          // The server's own write between them: its connection's data_version does not move for it.
          expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: expected } })).status).toBe(200);
        } else {
          transaction(other, () => updatePrice(other, { workspaceId: 1, keyId: null, now: new Date().toISOString() }, "Maize", { price: expected }));
          // The server looks at the file at most once a millisecond: the first request a millisecond
          // after the commit must see it (a deadline, not a sleep: nothing else needs to happen meanwhile).
          const committed = performance.now();
          while (performance.now() - committed < 1);
        }
        expect(await price()).toBe(expected);
      }
    } finally {
      other.close();
    }
  });
});

describe("how often the server looks (issue 29)", () => {
  test("at most once per lookEveryMs: another connection's commit waits for the next look, the server's own shows at once", () => {
    const db = openDatabase(t.dataPath, { create: false });
    const other = openDatabase(t.dataPath, { create: false });
    const version = new DataVersion(db, t.dataPath, 60_000);
    try {
      const first = version.current();
      transaction(other, () => updatePrice(other, { workspaceId: 1, keyId: null, now: new Date().toISOString() }, "Maize", { price: 999 }));
      // Within the interval nothing is read: the same generation, though the data changed.
      expect(version.current()).toBe(first);
      version.touch();
      expect(version.current()).toBe(first + 1);
      // Looking every time (the default) sees it at once.
      const exact = new DataVersion(db, t.dataPath);
      const before = exact.current();
      transaction(other, () => updatePrice(other, { workspaceId: 1, keyId: null, now: new Date().toISOString() }, "Maize", { price: 998 }));
      expect(exact.current()).toBe(before + 1);
      exact.close();
      exact.release();
    } finally {
      version.close();
      version.release();
      other.close();
      db.close();
    }
  });
});
