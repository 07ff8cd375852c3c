import { processIo } from "../cli/io.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { databaseFor, pgTool } from "./helpers/postgres.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

const health = (key: string) => t.request("GET", "/v1/health", { key });

/** Everything stored: the data file and whatever lies beside it, or on PostgreSQL the database's whole dump. */
function storedBytes(dataPath: string): Buffer {
  const url = databaseFor(dataPath);
  if (url !== undefined) return Buffer.from(Bun.spawnSync([pgTool("pg_dump"), "--data-only", url]).stdout);
  const dir = join(dataPath, "..");
  return Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
}

describe("feedbase key (CLI against the running server's data file)", () => {
  test("a key created while serving works on the next request", async () => {
    const r = await cli(["key", "create", "--data", t.dataPath, "--label", "ERP", "--json"]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.key).toMatch(/^fbk_[0-9A-Za-z]{40}$/);
    expect(created.id).toMatch(/^key_/);
    expect((await health(created.key)).status).toBe(200);
  });

  test("a key deactivated while serving is refused within 1 s, and activation restores it", async () => {
    const { key, id } = JSON.parse((await cli(["key", "create", "--data", t.dataPath, "--json"])).stdout);
    expect((await health(key)).status).toBe(200);
    expect((await cli(["key", "deactivate", id, "--data", t.dataPath])).code).toBe(0);
    await eventually(async () => (await health(key)).status === 401, 1000);
    const res = await health(key);
    expect(await res.json()).toEqual({ status: "error", message: "Invalid or inactive API key" });
    expect((await cli(["key", "activate", id, "--data", t.dataPath])).code).toBe(0);
    await eventually(async () => (await health(key)).status === 200, 1000);
  });

  test("key list never prints a key, with a table or JSON lines", async () => {
    const { key, id } = JSON.parse((await cli(["key", "create", "--data", t.dataPath, "--write", "--rate-limit", "250", "--json"])).stdout);
    const table = await cli(["key", "list", "--data", t.dataPath]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(id);
    expect(table.stdout).not.toContain(key);
    const lines = (await cli(["key", "list", "--data", t.dataPath, "--json"])).stdout.trim().split("\n").map((l) => JSON.parse(l));
    const mine = lines.find((l) => l.id === id);
    expect(mine).toMatchObject({ id, workspace: "default", write: true, active: true, rateLimit: 250 });
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  test("grant-write, revoke-write and set-rate-limit change the key", async () => {
    const { id } = JSON.parse((await cli(["key", "create", "--data", t.dataPath, "--json"])).stdout);
    expect((await cli(["key", "grant-write", id, "--data", t.dataPath])).code).toBe(0);
    expect((await cli(["key", "set-rate-limit", id, "1000", "--data", t.dataPath])).code).toBe(0);
    let row = (await cli(["key", "list", "--json", "--data", t.dataPath])).stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.id === id);
    expect(row).toMatchObject({ write: true, rateLimit: 1000 });
    expect((await cli(["key", "revoke-write", id, "--data", t.dataPath])).code).toBe(0);
    row = (await cli(["key", "list", "--json", "--data", t.dataPath])).stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.id === id);
    expect(row.write).toBe(false);
  });

  test("an unknown key id fails with exit 1 and one line", async () => {
    const r = await cli(["key", "deactivate", "key_nope", "--data", t.dataPath]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("key_nope");
  });

  test.each([
    [["key", "create", "--rate-limit", "0"]],
    [["key", "create", "--rate-limit", "abc"]],
    [["key", "create", "--rate-limit", "1000001"]],
    [["key", "set-rate-limit", "key_x", "0"]],
    [["key", "create", "--no-such-option"]],
    [["workspace", "create", "Bad_Slug"]],
  ])("bad usage %j exits 2", async (args) => {
    const r = await cli([...args, "--data", t.dataPath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error");
  });

  test("the data file never holds a key in plain text", async () => {
    const { key } = JSON.parse((await cli(["key", "create", "--data", t.dataPath, "--json"])).stdout);
    expect((await health(key)).status).toBe(200);
    const stored = storedBytes(t.dataPath);
    expect(stored.length).toBeGreaterThan(1000);
    expect(stored.includes(Buffer.from(key))).toBe(false);
    expect(stored.includes(Buffer.from(key.slice(4)))).toBe(false);
  });

});

describe("workspaces", () => {
  test("default exists; create and list", async () => {
    expect((await cli(["workspace", "create", "north-mill", "--name", "North mill", "--data", t.dataPath])).code).toBe(0);
    const rows = (await cli(["workspace", "list", "--json", "--data", t.dataPath])).stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => r.slug)).toEqual(["default", "north-mill"]);
    expect(rows[1]).toMatchObject({ slug: "north-mill", name: "North mill" });
    const again = await cli(["workspace", "create", "north-mill", "--data", t.dataPath]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });
  test("a key for an unknown workspace is refused", async () => {
    const r = await cli(["key", "create", "--workspace", "nowhere", "--data", t.dataPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("nowhere");
  });
});

describe("data file handling", () => {
  test.each([[["key", "create"]], [["key", "list"]], [["workspace", "list"]], [["workspace", "create", "x"]]])(
    "%j on a missing data file is refused and creates nothing",
    async (args) => {
      const tmp = tempDir();
      try {
        const path = join(tmp.dir, "missing.db");
        const r = await cli([...args, "--data", path]);
        expect(r.code).toBe(1);
        expect(r.stderr.trim()).toBe(`error: No data file at ${path} (run feedbase serve once, or pass --data)`);
        expect(readdirSync(tmp.dir)).toEqual([]);
      } finally {
        tmp.cleanup();
      }
    },
  );
  test("FEEDBASE_DATA is honoured", async () => {
    const r = await cli(["workspace", "list", "--json"], { env: { FEEDBASE_DATA: t.dataPath } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"slug":"default"');
  });
  test("version needs no data file; every command's help has examples", async () => {
    const v = await cli(["version"]);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    // Every command's help carries an example.
    const program = await (await import("../cli/program.ts")).buildProgram(processIo);
    const leaves = program.commands.flatMap((c) => (c.commands.length > 0 ? c.commands.map((s) => [c.name(), s.name()]) : [[c.name()]]));
    expect(leaves.length).toBeGreaterThan(25);
    const paths = leaves.filter((p) => p[0] !== "help");
    const helps = await Promise.all(paths.map((path) => cli([...path, "--help"])));
    helps.forEach((help, i) => {
      expect(help.code).toBe(0);
      expect(help.stdout, paths[i]!.join(" ")).toContain("Examples:");
    });
  }, 60_000);
});
