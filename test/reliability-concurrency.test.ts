import { describe, test } from "bun:test";
import { adminBesideWrites } from "./helpers/beside-writes.ts";
import { startTestServer } from "./helpers/harness.ts";

describe("admin commands while the server takes writes", () => {
  // Backup beside the same writes is SQLite's (test/backup.test.ts).
  test("key create and import run beside concurrent writes: no busy error, nothing lost, no request stalled", async () => {
    const t = await startTestServer();
    try {
      await adminBesideWrites(t);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
