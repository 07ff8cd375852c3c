/** Issue 15, item 5: a second `serve` on a port already in use refuses instead of sharing it. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";

describe("a busy port", () => {
  test("serve on a port another serve listens on: one line, exit 1, and the first keeps every connection", async () => {
    const tmp = tempDir();
    const first = await spawnServe(tmp.dataPath);
    try {
      const port = new URL(first.url).port;
      const second = await cli(["serve", "--data", join(tmp.dir, "other.db"), "--port", port]);
      expect({ code: second.code, stderr: second.stderr, listening: second.stdout.includes('"listening"') }).toEqual({
        code: 1,
        stderr: `error: Port ${port} is already in use\n`,
        listening: false,
      });
      for (let i = 0; i < 20; i++) expect((await fetch(`${first.url}/healthz`, { headers: { Connection: "close" } })).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
      tmp.cleanup();
    }
  }, 30_000);
});
