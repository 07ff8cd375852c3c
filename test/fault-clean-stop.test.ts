/**
 * Issue 15, item 4: after a clean stop of `serve`, and after every admin command, the data file alone
 * holds everything: the WAL is folded in and removed, so copying the one file is a complete copy.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";
import { startRecorder } from "./helpers/webhooks.ts";

/** Copy only the data file (no -wal, no -shm) and open the copy read-only. */
function copyAlone(dataPath: string, dir: string): Database {
  const copyDir = join(dir, `copy-${Math.random().toString(36).slice(2)}`);
  mkdirSync(copyDir);
  const copy = join(copyDir, "copy.db");
  copyFileSync(dataPath, copy);
  return new Database(copy, { readonly: true });
}

const companions = (dataPath: string) => ["-wal", "-shm"].filter((suffix) => existsSync(dataPath + suffix));

describe("a clean stop leaves the data file complete on its own", () => {
  test("serve stopped with SIGTERM: no -wal or -shm, and a copy of the file alone has every acknowledged change", async () => {
    const tmp = tempDir();
    try {
      const demo = await cli(["demo", "--data", tmp.dataPath]);
      expect(demo.code).toBe(0);
      const writeKey = /Write key: (fbk_\w+)/.exec(demo.stdout)![1]!;
      const server = await spawnServe(tmp.dataPath);
      const prices: Record<string, number> = {};
      for (let i = 0; i < 30; i++) {
        const name = `Stop test ${i}`;
        const res = await fetch(`${server.url}/v1/ingredients`, { method: "POST", headers: { "X-API-Key": writeKey }, body: JSON.stringify({ name, price: 100 + i }) });
        expect(res.status).toBe(201);
        prices[name] = 100 + i;
      }
      expect(await server.stop()).toBe(0);
      expect(companions(tmp.dataPath)).toEqual([]);
      const copy = copyAlone(tmp.dataPath, tmp.dir);
      const rows = copy.query("SELECT name, price FROM ingredients WHERE name LIKE 'Stop test %'").all() as { name: string; price: number }[];
      copy.close();
      expect(Object.fromEntries(rows.map((r) => [r.name, r.price]))).toEqual(prices);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);

  test("every admin command ends with the file complete on its own: no -wal or -shm, and a copy has what it wrote", async () => {
    const tmp = tempDir();
    const receiver = startRecorder();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      expect(companions(tmp.dataPath)).toEqual([]);
      const csv = join(tmp.dir, "one.csv");
      await Bun.write(csv, "name,category,price,inStock\nClean stop grain,Cereals,123,true\n");
      const commands = [
        ["key", "create", "--write", "--label", "clean-stop"],
        ["key", "list"],
        ["workspace", "create", "cleanstop"],
        ["webhook", "add", receiver.url],
        ["webhook", "list"],
        ["import", "ingredients", csv],
        ["export", "ingredients"],
        ["backup", join(tmp.dir, "backup.db")],
      ];
      for (const command of commands) {
        const result = await cli([...command, "--data", tmp.dataPath]);
        expect({ command, code: result.code, stderr: result.stderr }).toEqual({ command, code: 0, stderr: "" });
        expect({ command, companions: companions(tmp.dataPath) }).toEqual({ command, companions: [] });
      }
      const copy = copyAlone(tmp.dataPath, tmp.dir);
      expect(copy.query("SELECT count(*) AS n FROM api_keys WHERE label = 'clean-stop'").get()).toEqual({ n: 1 });
      expect(copy.query("SELECT count(*) AS n FROM workspaces WHERE slug = 'cleanstop'").get()).toEqual({ n: 1 });
      expect(copy.query("SELECT count(*) AS n FROM webhooks").get()).toEqual({ n: 1 });
      expect(copy.query("SELECT price FROM ingredients WHERE name = 'Clean stop grain'").get()).toEqual({ price: 123 });
      copy.close();
    } finally {
      await receiver.stop();
      tmp.cleanup();
    }
  }, 60_000);
});
