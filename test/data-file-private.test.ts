/** The SQLite data file, its -wal and -shm are the service user's alone: they hold key hashes and webhook secrets. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { cli, startTestServer, type TestServer } from "./helpers/harness.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

test("the data file and its -wal/-shm are private to the service user, after the server and a command wrote them", async () => {
  expect((await cli(["key", "create", "--data", t.dataPath])).code).toBe(0);
  const dir = join(t.dataPath, "..");
  const files = readdirSync(dir).filter((n) => n.startsWith("feedbase.db"));
  expect(files).toEqual(expect.arrayContaining(["feedbase.db", "feedbase.db-wal", "feedbase.db-shm"]));
  for (const name of files) expect(statSync(join(dir, name)).mode & 0o077).toBe(0);
});
