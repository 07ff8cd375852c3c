import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, openSync, readdirSync, closeSync, writeSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";

const STAMPED = /^feedbase-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.db$/;

/** A data file with the given ingredients, made and changed by the real CLI and server. */
async function dataWith(dataPath: string, names: string[]): Promise<void> {
  const s = await spawnServe(dataPath);
  try {
    const key = JSON.parse((await cli(["key", "create", "--write", "--json", "--data", dataPath])).stdout).key;
    for (const name of names) {
      const res = await fetch(s.url + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": key }, body: JSON.stringify({ name, price: 100 }) });
      expect(res.status).toBe(201);
    }
  } finally {
    expect(await s.stop()).toBe(0);
  }
}

function ingredientNames(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("SELECT name FROM ingredients ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe("backup --dir --keep --verify", () => {
  test("writes timestamped, verified copies and removes the oldest beyond --keep, leaving other files alone", async () => {
    const tmp = tempDir();
    try {
      await dataWith(tmp.dataPath, ["Maize"]);
      const dir = join(tmp.dir, "backups");
      mkdirSync(dir);
      writeFileSync(join(dir, "keep-me.db"), "an admin's own file");
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await cli(["backup", "--dir", dir, "--keep", "2", "--verify", "--data", tmp.dataPath]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/^Verified .*: integrity ok, schema version \d+$/m);
        made.push(/to (\S+) \(/.exec(r.stdout)![1]!);
      }
      expect(made.map((p) => p.split("/").pop()!).every((n) => STAMPED.test(n))).toBe(true);
      expect([...made].sort()).toEqual(made);
      const left = readdirSync(dir).sort();
      expect(left).toEqual(["keep-me.db", made[1]!.split("/").pop()!, made[2]!.split("/").pop()!].sort());
      expect(ingredientNames(made[2]!)).toEqual(["Maize"]);
    } finally {
      tmp.cleanup();
    }
  });

  test("a file and --dir together, neither, or --keep without --dir are usage errors", async () => {
    const tmp = tempDir();
    try {
      await dataWith(tmp.dataPath, []);
      for (const args of [["backup"], ["backup", join(tmp.dir, "x.db"), "--dir", tmp.dir], ["backup", join(tmp.dir, "x.db"), "--keep", "3"]]) {
        const r = await cli([...args, "--data", tmp.dataPath]);
        expect(r.code).toBe(2);
        expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      }
    } finally {
      tmp.cleanup();
    }
  });
});

describe("feedbase restore", () => {
  test("refused while a server holds the file; once stopped, the backup is swapped in and the old file kept", async () => {
    const tmp = tempDir();
    try {
      await dataWith(tmp.dataPath, ["Maize", "Wheat"]);
      const backup = join(tmp.dir, "before.db");
      expect((await cli(["backup", backup, "--data", tmp.dataPath])).code).toBe(0);
      await dataWith(tmp.dataPath, ["Barley"]);

      const s = await spawnServe(tmp.dataPath);
      let refused;
      try {
        refused = await cli(["restore", backup, "--data", tmp.dataPath]);
      } finally {
        expect(await s.stop()).toBe(0);
      }
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${s.proc.pid}`);
      expect(ingredientNames(tmp.dataPath)).toEqual(["Barley", "Maize", "Wheat"]);

      // A leftover -wal/-shm of another database must not be replayed into the restored file.
      writeFileSync(`${tmp.dataPath}-shm`, "stale");
      const r = await cli(["restore", backup, "--data", tmp.dataPath]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Restored ${backup}`);
      expect(existsSync(`${tmp.dataPath}-wal`)).toBe(false);
      expect(existsSync(`${tmp.dataPath}-shm`)).toBe(false);
      expect(ingredientNames(tmp.dataPath)).toEqual(["Maize", "Wheat"]);
      const previous = /kept as (\S+);/.exec(r.stdout)![1]!;
      expect(ingredientNames(previous)).toEqual(["Barley", "Maize", "Wheat"]);

      // The server starts on the restored file and serves the backup's data.
      const again = await spawnServe(tmp.dataPath);
      try {
        const key = JSON.parse((await cli(["key", "create", "--json", "--data", tmp.dataPath])).stdout).key;
        const list = await (await fetch(again.url + "/v1/ingredients", { headers: { "X-API-Key": key } })).json();
        expect(list.data.map((i: { name: string }) => i.name)).toEqual(["Maize", "Wheat"]);
      } finally {
        expect(await again.stop()).toBe(0);
      }
    } finally {
      tmp.cleanup();
    }
  });

  test("a damaged backup, one from a newer schema, and a file that is no database are refused, the data file untouched", async () => {
    const tmp = tempDir();
    try {
      await dataWith(tmp.dataPath, ["Maize"]);
      const good = join(tmp.dir, "good.db");
      expect((await cli(["backup", good, "--data", tmp.dataPath])).code).toBe(0);

      const damaged = join(tmp.dir, "damaged.db");
      copyFileSync(good, damaged);
      const fd = openSync(damaged, "r+");
      // Garbage over the second page onwards: the schema page survives, the tables do not.
      writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 4096);
      closeSync(fd);

      const newer = join(tmp.dir, "newer.db");
      copyFileSync(good, newer);
      const db = new Database(newer);
      db.run("PRAGMA user_version = 9999");
      db.close();

      const text = join(tmp.dir, "notes.db");
      writeFileSync(text, "not a database at all, just some text that is long enough to have a header".repeat(10));

      const before = readFileSync(tmp.dataPath);
      for (const [file, reason] of [
        [damaged, "integrity check"],
        [newer, "schema version 9999, newer than this feedbase's"],
        [text, "not a"],
        [join(tmp.dir, "missing.db"), "No backup at"],
      ] as const) {
        const r = await cli(["restore", file, "--data", tmp.dataPath]);
        expect({ file, code: r.code }).toEqual({ file, code: 1 });
        expect(r.stderr).toContain(reason);
        expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      }
      expect(readFileSync(tmp.dataPath).equals(before)).toBe(true);
      expect(readdirSync(tmp.dir).filter((n) => n.includes("pre-restore") || n.includes("restoring"))).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });
});
