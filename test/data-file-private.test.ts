/**
 * The SQLite data file, its -wal and -shm, and backups are the service user's alone: they hold key
 * hashes and webhook secrets. Even under a permissive umask, as a careless service set-up would have:
 * serve and the commands make their files private themselves.
 */
import { expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { cli, spawnServe, tempDir, type ServeProcess } from "./helpers/harness.ts";

/** Every file beside the data file with its permission bits. */
const modes = (dir: string) => Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));

test("under umask 022, the data file, its -wal and -shm and a backup are private to the service user, while the server and commands write them", async () => {
  const tmp = tempDir();
  const previous = process.umask(0o022);
  let serve: ServeProcess | null = null;
  try {
    expect(Bun.spawnSync(["sh", "-c", "umask"]).stdout.toString().trim()).toBe("0022");
    serve = await spawnServe(tmp.dataPath);
    const data = ["--data", tmp.dataPath];
    for (const args of [["key", "create"], ["webhook", "add", "http://127.0.0.1:9/"], ["backup", join(tmp.dir, "backup.db")]]) {
      expect((await cli([...args, ...data])).code).toBe(0);
    }
    const files = modes(tmp.dir);
    expect(Object.keys(files).sort()).toEqual(["backup.db", "feedbase.db", "feedbase.db-shm", "feedbase.db-wal"]);
    for (const mode of Object.values(files)) expect(mode).toBe("600");
    expect(await serve.stop()).toBe(0);
    serve = null;
    for (const mode of Object.values(modes(tmp.dir))) expect(mode).toBe("600");
  } finally {
    process.umask(previous);
    serve?.proc.kill("SIGKILL");
    tmp.cleanup();
  }
}, 30_000);
