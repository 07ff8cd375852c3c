import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";

describe("feedbase serve", () => {
  test("creates a missing data file, serves, and stops cleanly on SIGTERM", async () => {
    const tmp = tempDir();
    try {
      const s = await spawnServe(tmp.dataPath);
      expect(existsSync(tmp.dataPath)).toBe(true);
      const res = await fetch(s.url + "/healthz");
      expect(res.status).toBe(200);
      expect(await s.stop("SIGTERM")).toBe(0);
      expect(s.output()).toContain('"msg":"stopping"');
    } finally {
      tmp.cleanup();
    }
  });

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

  test("a bad port is a usage error", async () => {
    const r = await cli(["serve", "--port", "70000"]);
    expect(r.code).toBe(2);
  });
});
