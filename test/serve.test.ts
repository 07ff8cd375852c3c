import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cli, tempDir } from "./helpers/harness.ts";

describe("feedbase serve", () => {
  test("refuses plain HTTP off loopback without TLS or --insecure-http", async () => {
    const tmp = tempDir();
    try {
      const r = await cli(["serve", "--data", tmp.dataPath, "--host", "0.0.0.0", "--port", "0"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Refusing plain HTTP on 0.0.0.0");
    } finally {
      tmp.cleanup();
    }
  });

  test("--database-connections is a whole number from 2 to 100, given only with --database", async () => {
    const tmp = tempDir();
    try {
      // A file of its own: in make test-postgres the temporary data path stands for a database.
      const file = join(tmp.dir, "mill.db");
      const onSqlite = await cli(["serve", "--data", file, "--port", "0", "--database-connections", "4"]);
      expect({ code: onSqlite.code, stderr: onSqlite.stderr.trim() }).toEqual({ code: 1, stderr: "error: --database-connections goes with --database (PostgreSQL)" });
      for (const bad of ["1", "101", "ten"]) {
        const r = await cli(["serve", "--data", file, "--port", "0", "--database-connections", bad]);
        expect({ bad, code: r.code }).toEqual({ bad, code: 2 });
        expect(r.stderr).toContain("--database-connections must be a whole number from 2 to 100");
      }
      expect(existsSync(file)).toBe(false);
    } finally {
      tmp.cleanup();
    }
  });

  test("a bad port is a usage error", async () => {
    const r = await cli(["serve", "--port", "70000"]);
    expect(r.code).toBe(2);
  });
});
