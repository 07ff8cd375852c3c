import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../src/version.ts";
import { cli, ROOT, spawnServe, tempDir } from "./helpers/harness.ts";

// CLI subprocesses on a loaded 2-core machine.
setDefaultTimeout(60_000);

const tmp = tempDir();
const data = join(tmp.dir, "feedbase.db");
beforeAll(async () => {
  expect((await cli(["workspace", "list", "--data", data])).code).toBe(1);
  expect((await cli(["demo", "--data", data])).code).toBe(0);
});
afterAll(() => tmp.cleanup());

/** One line on stderr, naming `file`, exit 1: what a person who caused the failure should see. */
function expectOneLineRefusal(r: { code: number; stderr: string; stdout: string }, file: string, cause: string): void {
  expect(r.code).toBe(1);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("error: ");
  expect(lines[0]).toContain(file);
  expect(lines[0]).toContain(cause);
  expect(r.stderr).not.toContain("    at ");
}

describe("version and help", () => {
  test.each([["--version"], ["-V"], ["version"]])("feedbase %s prints the version, exit 0", async (flag) => {
    const r = await cli([flag]);
    expect(r).toEqual({ code: 0, stdout: VERSION + "\n", stderr: "" });
  });

  test.each([[[]], [["key"]], [["webhook"]]])("feedbase %j without a subcommand prints help on stderr, exit 2", async (args) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Usage: feedbase");
  });

  test.each([[["--help"]], [["key", "--help"]], [["help", "key"]]])("asked-for help %j is exit 0 on stdout", async (args) => {
    const r = await cli(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: feedbase");
  });
});

describe("a missing data file", () => {
  // Commands refuse a missing file (below); serve, the first start, creates it.
  test("serve creates a missing data file, serves, and stops cleanly on SIGTERM", async () => {
    const fresh = tempDir();
    try {
      const s = await spawnServe(fresh.dataPath);
      expect(existsSync(fresh.dataPath)).toBe(true);
      const res = await fetch(s.url + "/healthz");
      expect(res.status).toBe(200);
      expect(await s.stop("SIGTERM")).toBe(0);
      expect(s.output()).toContain('"msg":"stopping"');
    } finally {
      fresh.cleanup();
    }
  });
});

describe("failures a person can cause are one line, exit 1", () => {
  test("output piped into a reader that has gone (| head) ends quietly, exit 0, no stack", async () => {
    // `true` exits without reading, long before Bun has started: the command's first write meets a closed pipe.
    const proc = Bun.spawn(["bash", "-c", `set -o pipefail; "${process.execPath}" cli/main.ts key create --help | true`], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });

  test("backup into a missing directory", async () => {
    const target = join(tmp.dir, "no-such-dir", "backup.db");
    expectOneLineRefusal(await cli(["backup", target, "--data", data]), join(tmp.dir, "no-such-dir"), "does not exist");
  });

  test("serve --data in a missing directory", async () => {
    const missing = join(tmp.dir, "nowhere", "feedbase.db");
    expectOneLineRefusal(await cli(["serve", "--port", "0", "--data", missing]), missing, "does not exist");
  });

  test("serve with a missing or non-PEM TLS file", async () => {
    const cert = join(tmp.dir, "missing-cert.pem");
    expectOneLineRefusal(await cli(["serve", "--port", "0", "--data", data, "--tls-cert", cert, "--tls-key", cert]), cert, "no such file");
    const junk = join(tmp.dir, "junk.pem");
    writeFileSync(junk, "not a certificate\n");
    expectOneLineRefusal(await cli(["serve", "--port", "0", "--data", data, "--tls-cert", junk, "--tls-key", junk]), junk, "not a PEM file");
  });

  test.each([[["key", "list"]], [["webhook", "list"]], [["export", "ingredients"]], [["backup", "copy.db"]], [["serve", "--port", "0"]]])(
    "%j on a file that is not a database",
    async (args) => {
      const notDb = join(tmp.dir, "notes.db");
      writeFileSync(notDb, "these are my notes, not a database\n".repeat(200));
      const r = await cli([...args.map((a) => (a === "copy.db" ? join(tmp.dir, "copy.db") : a)), "--data", notDb]);
      expectOneLineRefusal(r, notDb, "not a feedbase data file");
    },
  );

  test("a directory as the data file", async () => {
    const dir = join(tmp.dir, "a-directory.db");
    mkdirSync(dir);
    expectOneLineRefusal(await cli(["serve", "--port", "0", "--data", dir]), dir, "is a directory");
  });
});

describe("key ids, never keys", () => {
  test.each([["deactivate"], ["activate"], ["grant-write"], ["revoke-write"]])("key %s with a key instead of an id: exit 2, the key is not printed", async (command) => {
    const { key } = JSON.parse((await cli(["key", "create", "--data", data, "--json"])).stdout);
    const r = await cli(["key", command, key, "--data", data]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(key);
    expect(r.stdout + r.stderr).not.toContain(key.slice(4));
    expect(r.stderr).toContain("key_");
    expect(r.stderr).toContain("feedbase key identify");
  });

  test("set-rate-limit with a key instead of an id: exit 2, the key is not printed", async () => {
    const { key } = JSON.parse((await cli(["key", "create", "--data", data, "--json"])).stdout);
    const r = await cli(["key", "set-rate-limit", key, "500", "--data", data]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain(key);
  });

  test("key identify reads a key from stdin and prints its id, never the key", async () => {
    const { key, id } = JSON.parse((await cli(["key", "create", "--data", data, "--write", "--label", "ERP", "--json"])).stdout);
    const r = await cli(["key", "identify", "--data", data], { stdin: key + "\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith(`${id}  (workspace default, read and write`);
    expect(r.stdout).not.toContain(key);
    const json = await cli(["key", "identify", "--json", "--data", data], { stdin: key });
    expect(JSON.parse(json.stdout)).toMatchObject({ id, workspace: "default", write: true, active: true, label: "ERP" });
    expect(json.stdout).not.toContain(key);
    // The id it prints is the one the other commands take.
    expect((await cli(["key", "deactivate", JSON.parse(json.stdout).id, "--data", data])).code).toBe(0);
  });

  test("key identify: an unknown key is exit 1 and not printed; no key is exit 2", async () => {
    const unknown = "fbk_" + "x".repeat(40);
    const r = await cli(["key", "identify", "--data", data], { stdin: unknown });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain(unknown);
    expect((await cli(["key", "identify", "--data", data], { stdin: "" })).code).toBe(2);
  });
});

describe("option values in any case", () => {
  test("--format CSV is csv", async () => {
    const upper = await cli(["export", "ingredients", "--format", "CSV", "--data", data]);
    const lower = await cli(["export", "ingredients", "--format", "csv", "--data", data]);
    expect(upper.code).toBe(0);
    expect(upper.stdout).toStartWith("name,category,price,inStock,");
    expect(upper.stdout).toBe(lower.stdout);
  });

  test("--status FAILED and --events PRICE.UPDATED", async () => {
    expect((await cli(["webhook", "deliveries", "--status", "FAILED", "--data", data])).code).toBe(0);
    const added = await cli(["webhook", "add", "http://127.0.0.1:9/", "--events", "Price.Updated", "--json", "--data", data]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).events).toEqual(["price.updated"]);
  });

  test("a value that is not a choice in any case is still exit 2", async () => {
    const r = await cli(["export", "ingredients", "--format", "XML", "--data", data]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("json, csv");
  });
});
