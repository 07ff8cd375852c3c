/**
 * PostgreSQL only (make test-postgres): the database going away under a running server. Its loops
 * (webhook delivery scans every poll, rate-limit exchanges every 100 ms) each say so once, not once per
 * try, and the server stops promptly on SIGTERM.
 */
import { describe, expect, test } from "bun:test";
import { eventually, spawnServe, tempDir } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";

describe("the database going away", () => {
  test("is logged once per loop while it lasts, and SIGTERM still stops the server", async () => {
    const tmp = tempDir();
    const server = await spawnServe(tmp.dataPath);
    try {
      const name = new URL(databaseFor(tmp.dataPath)!).pathname.slice(1);
      psql(process.env.FEEDBASE_TEST_PG_URL!, `DROP DATABASE ${name} WITH (FORCE)`);
      const lines = (msg: string) => server.output().split("\n").filter((l) => l.includes(`"msg":"${msg}`)).length;
      await eventually(() => lines("webhook delivery scan failed") === 1 && lines("rate-limit counts could not be exchanged") === 1, 10_000);
      // Several polls and some twenty exchanges later (absence takes real time to show): still one each.
      await Bun.sleep(2_000);
      expect([lines("webhook delivery scan failed"), lines("rate-limit counts could not be exchanged")]).toEqual([1, 1]);
      const started = performance.now();
      expect(await server.stop()).toBe(0);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      if (server.proc.exitCode === null) await server.stop("SIGKILL");
      tmp.cleanup();
    }
  }, 60_000);
});
