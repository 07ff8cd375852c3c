import { describe, expect, test } from "bun:test";
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

  test("a bad port is a usage error", async () => {
    const r = await cli(["serve", "--port", "70000"]);
    expect(r.code).toBe(2);
  });
});
