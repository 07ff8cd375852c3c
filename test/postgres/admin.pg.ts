/**
 * PostgreSQL only (make test-postgres): every admin command answers on PostgreSQL exactly as on SQLite.
 * One mill's file is copied into a database (copy-to, so both start identical), then the same command
 * lines run against both and their output and exit codes are compared byte for byte: reads (exports,
 * history, costs, reports, the solver, keys, webhooks, deliveries), writes and their refusals, and the
 * state both are left in. Timestamps a command takes from the clock are the only thing masked.
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, tempDir, type CliResult } from "../helpers/harness.ts";
import { databaseFor } from "../helpers/postgres.ts";

/**
 * ISO instants of today (the commands' own clock) and delivery ids (random, and an import's events now
 * make deliveries on each side), masked; the demo's history and saved formulas are older.
 */
const mask = (text: string, day: string) =>
  text.replaceAll(new RegExp(`${day}T\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z`, "g"), "<now>").replaceAll(/dlv_[0-9A-Za-z]{16}/g, "<delivery>");

describe("admin commands on PostgreSQL", () => {
  test("answer as on SQLite, reads and writes, refusals included, and leave the same data", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    const file = (name: string, text: string) => {
      const path = join(tmp.dir, name);
      writeFileSync(path, text);
      return path;
    };
    try {
      expect((await cli(["demo", "--data", mill])).code).toBe(0);
      expect((await cli(["workspace", "create", "north-mill", "--data", mill])).code).toBe(0);
      expect((await cli(["webhook", "add", "http://127.0.0.1:9/", "--events", "price.updated", "--data", mill])).code).toBe(0);
      const url = databaseFor(tmp.dataPath)!;
      expect((await cli(["copy-to", url, "--data", mill])).code).toBe(0);
      const day = new Date().toISOString().slice(0, 10);
      const both = async (...args: string[]): Promise<CliResult> => {
        const lite = await cli([...args, "--data", mill]);
        const pg = await cli([...args, "--database", url]);
        expect({ args, code: pg.code, stdout: mask(pg.stdout, day), stderr: mask(pg.stderr, day) }).toEqual({
          args,
          code: lite.code,
          stdout: mask(lite.stdout, day),
          stderr: mask(lite.stderr, day),
        });
        return pg;
      };
      const reads = async () => {
        for (const format of ["json", "csv"]) {
          await both("export", "ingredients", "--format", format);
          await both("export", "formulas", "--format", format);
        }
        await both("price", "history", "Soybean meal 48%");
        await both("price", "history", "Maize", "--from", "2026-09-01T00:00:00Z", "--json");
        await both("formula", "cost", "broiler-starter");
        await both("formula", "cost", "layer-phase-1", "--at", "2026-10-01T00:00:00Z", "--json");
        await both("report", "cost-changes");
        await both("report", "cost-changes", "--since", "2026-10-01T00:00:00Z", "--json");
        await both("report", "savings");
        await both("formula", "optimize", "broiler-starter", "--include", "Wheat,Barley", "--price", "Soybean meal 48%=455");
        await both("key", "list");
        await both("workspace", "list", "--json");
        await both("webhook", "list", "--json");
        await both("webhook", "deliveries", "--json");
      };
      await reads();

      // Writes and refusals: the same answers, and the same data afterwards.
      const csv = file("prices.csv", "name,category,price,inStock,CP\nMaize,Cereals,231,true,8.5\nSorghum,Cereals,205,yes,8.8\n");
      await both("import", "ingredients", csv);
      expect((await both("import", "ingredients", csv, "--update")).stdout).toContain("(1 new, 1 updated)");
      await both("import", "ingredients", file("bad.csv", "name,category,price,inStock\nRye,Cereals,x,true\n"));
      await both("import", "ingredients", csv, "--workspace", "north-mill");
      const formulas = file(
        "f.json",
        JSON.stringify([{ id: "mash", name: "Layer mash", species: "Poultry", subcategory: "Layer", batchSize: 1000, ingredients: [{ name: "Maize", percent: 60 }, { name: "Sorghum", percent: 40 }] }]),
      );
      await both("import", "formulas", formulas);
      await both("import", "formulas", formulas);
      await both("import", "formulas", formulas, "--replace");
      await both("formula", "delete", "layer-phase-1");
      await both("formula", "delete", "nope");
      await both("ingredient", "delete", "Maize");
      await both("ingredient", "delete", "Alfalfa meal 17%");
      await both("ingredient", "delete", "Nothing");
      await both("formula", "optimize", "broiler-starter", "--save-as", "Broiler starter (Nov)", "--id", "broiler-starter-nov");
      await both("workspace", "create", "north-mill");
      await both("webhook", "retry", "--pending");
      await both("webhook", "retry", "--failed");
      await both("webhook", "retry", "dlv_unknown");
      await both("key", "grant-write", "key_unknown");
      await reads();
    } finally {
      tmp.cleanup();
    }
  });

  test("demo fills a new database as it fills a new file (only times and keys differ), and refuses a second time", async () => {
    const tmp = tempDir();
    const mill = join(tmp.dir, "mill.db");
    try {
      const url = databaseFor(tmp.dataPath)!;
      const anyTime = (text: string) => text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>").replace(/fbk_\w+/g, "<key>").replace(/key_\w+/g, "<id>");
      const lite = await cli(["demo", "--data", mill]);
      const pg = await cli(["demo", "--database", url]);
      expect(pg.code).toBe(0);
      // The serve line names the data as each backend takes it: the file, or the URL's variable (never its password).
      const pgSaid = anyTime(pg.stdout).replaceAll(new URL(url).href.replace(/\/$/, ""), "<where>").replace('--database "$FEEDBASE_DATABASE_URL"', "--data <where>");
      expect(pgSaid).toBe(anyTime(lite.stdout).replaceAll(mill, "<where>"));
      for (const args of [["export", "ingredients"], ["export", "formulas"], ["price", "history", "Maize"], ["report", "cost-changes", "--json"]]) {
        const onPg = await cli([...args, "--database", url]);
        expect(anyTime(onPg.stdout)).toBe(anyTime((await cli([...args, "--data", mill])).stdout));
      }
      const again = await cli(["demo", "--database", url]);
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 1, stderr: (await cli(["demo", "--data", mill])).stderr });
      expect(again.stderr).toContain("the demo only fills an empty workspace");
    } finally {
      tmp.cleanup();
    }
  });

  test("a command opens one connection to the database, reads and writes alike", async () => {
    const tmp = tempDir();
    const url = databaseFor(tmp.dataPath)!;
    expect((await cli(["key", "list", "--database", url])).code).toBe(0); // made and migrated: later opens only connect
    const observer = new SQL(url, { max: 1 });
    try {
      // pg_stat_database counts every session the database has had, once the session has ended: read
      // when no other session is left.
      const sessions = async () => {
        for (;;) {
          const [{ others }] = await observer`SELECT count(*)::int AS others FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
          if (others === 0) break;
        }
        const [{ n }] = await observer`SELECT sessions::int AS n FROM pg_stat_database WHERE datname = current_database()`;
        return n as number;
      };
      for (const args of [["key", "list"], ["key", "create", "--write"], ["workspace", "create", "north-mill"], ["export", "ingredients"]]) {
        const before = await sessions();
        const run = await cli([...args, "--database", url]);
        expect({ args, code: run.code }).toEqual({ args, code: 0 });
        expect({ args, sessions: (await sessions()) - before }).toEqual({ args, sessions: 1 });
      }
    } finally {
      await observer.close();
      tmp.cleanup();
    }
  });
});
