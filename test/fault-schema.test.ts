/**
 * Issue 15, item 9: a newer data file is refused; an older one is kept beside itself before it is
 * migrated, and the migration fills in what the newer schema keeps (the price history, the events' numbers).
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { openDatabase } from "../src/store/db.ts";
import { isPlaceholder, MIGRATION_STEPS, SCHEMA_VERSION } from "../src/store/migrations.ts";
import { eventsAfter } from "../src/store/event-pages.ts";
import { listEvents } from "../src/store/events.ts";
import { priceHistory } from "../src/store/price-history.ts";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";
import { EVENTS_OF_TWO_WORKSPACES } from "./helpers/schema.ts";

const KNOWN = SCHEMA_VERSION;
const MIGRATIONS = MIGRATION_STEPS.map((step) => step.sqlite);
const schemaOf = (path: string) => {
  const db = new Database(path, { readonly: true });
  const { user_version } = db.query("PRAGMA user_version").get() as { user_version: number };
  db.close();
  return user_version;
};

describe("schema versions", () => {
  test("a file from a newer feedbase: every command and serve refuse with one line, exit 1, and leave it alone", async () => {
    const tmp = tempDir();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const db = new Database(tmp.dataPath);
      db.run(`PRAGMA user_version = ${KNOWN + 1}`);
      db.close();
      const expected = `error: This data file has schema ${KNOWN + 1}; this feedbase knows up to ${KNOWN}: upgrade feedbase\n`;
      for (const args of [["key", "list"], ["serve", "--port", "0"]]) {
        const result = await cli([...args, "--data", tmp.dataPath]);
        expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 1, stderr: expected });
      }
      expect(schemaOf(tmp.dataPath)).toBe(KNOWN + 1);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);

  test("a file from an older feedbase is copied to <file>.pre-schema-<n> before it is migrated, and serve logs it", async () => {
    const tmp = tempDir();
    try {
      const old = KNOWN - 1;
      const db = new Database(tmp.dataPath);
      db.run("PRAGMA journal_mode = WAL");
      // A placeholder step (nothing to do on SQLite) has no statement to run.
      for (let version = 0; version < old; version++) if (!isPlaceholder(MIGRATIONS[version]!)) db.run(MIGRATIONS[version]!);
      db.run(`PRAGMA user_version = ${old}`);
      db.run("INSERT INTO ingredients (workspace_id, name, category, price, in_stock, nutrients, nutrient_count, created_at, updated_at) VALUES (1, 'Old maize', 'Cereals', 200, 1, '{}', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')");
      db.close();

      const server = await spawnServe(tmp.dataPath);
      const code = await server.stop();
      expect(code).toBe(0);
      const copy = `${tmp.dataPath}.pre-schema-${old}`;
      expect(existsSync(copy)).toBe(true);
      expect(schemaOf(copy)).toBe(old);
      expect(schemaOf(tmp.dataPath)).toBe(KNOWN);
      const kept = new Database(copy, { readonly: true });
      expect(kept.query("SELECT name FROM ingredients").all()).toEqual([{ name: "Old maize" }]);
      kept.close();
      const line = server
        .output()
        .split("\n")
        .find((l) => l.includes("copied before migrating"));
      expect(JSON.parse(line!)).toMatchObject({ level: "info", copy, fromSchema: old, toSchema: KNOWN });
    } finally {
      tmp.cleanup();
    }
  }, 30_000);

  test("migrating a file from before the price history: one entry per ingredient, its price and stock at its updatedAt, source import", () => {
    const tmp = tempDir();
    try {
      const old = new Database(tmp.dataPath, { create: true });
      // The file as the build before the price history left it.
      const before = MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE price_history"));
      for (let v = 0; v < before; v++) old.run(MIGRATIONS[v]!);
      old.run(`PRAGMA user_version = ${before}`);
      old.run(`INSERT INTO ingredients (workspace_id, name, category, price, in_stock, nutrients, nutrient_count, created_at, updated_at)
               VALUES (1, 'Oats', 'Cereals', 236, 0, '{}', 0, '2025-05-01T00:00:00.000Z', '2025-06-01T10:00:00.000Z')`);
      old.close();
      const db = openDatabase(tmp.dataPath, { create: false });
      expect(priceHistory(db, 1, "Oats").history).toEqual([{ price: 236, inStock: false, at: "2025-06-01T10:00:00.000Z", source: "import" }]);
      db.close();
    } finally {
      tmp.cleanup();
    }
  });

  test("migrating a file from before event numbers: an event keeps its id as its number, so a receiver's saved cursor names the same event", () => {
    const tmp = tempDir();
    try {
      const old = new Database(tmp.dataPath, { create: true });
      const before = MIGRATIONS.findIndex((m) => m.includes("ADD COLUMN number"));
      for (const step of MIGRATIONS.slice(0, before).filter((m) => !isPlaceholder(m))) old.run(step);
      old.run(`PRAGMA user_version = ${before}`);
      old.run(EVENTS_OF_TWO_WORKSPACES);
      old.close();
      const db = openDatabase(tmp.dataPath, { create: false });
      expect(listEvents(db, 1).map((e) => [e.id, e.ingredient])).toEqual([
        [1, "Oats"],
        [4, "Oats"],
      ]);
      expect(listEvents(db, 2).map((e) => [e.id, e.ingredient])).toEqual([
        [2, "Rye"],
        [3, "Rye"],
        [5, "Barley"],
      ]);
      expect(eventsAfter(db, 2, 3, 10).events.map((e) => e.id)).toEqual([5]);
      db.close();
    } finally {
      tmp.cleanup();
    }
  });
});
