import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers/harness.ts";
import { BACKEND_NEUTRAL, NO_DATA, OWN_CLUSTER, POSTGRES_ONLY, SQLITE_ONLY, WAITING } from "./postgres/suite.ts";
import { slowestFirst, testFiles } from "./run-files.ts";

describe("the PostgreSQL suite's list (test/postgres/suite.ts)", () => {
  test("every test file is in exactly one list, and every listed file exists", () => {
    const listed = [...BACKEND_NEUTRAL, ...[SQLITE_ONLY, NO_DATA, WAITING].flatMap((reasons) => Object.keys(reasons))];
    const files = readdirSync(join(ROOT, "test")).filter((name) => name.endsWith(".test.ts")).map((name) => `test/${name}`);
    expect(listed.filter((file, i) => listed.indexOf(file) !== i)).toEqual([]);
    expect(files.filter((file) => !listed.includes(file))).toEqual([]);
    expect([...listed, ...POSTGRES_ONLY].filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });

  test("PostgreSQL-only files are not found by a plain bun test, and every one is listed", () => {
    expect(POSTGRES_ONLY.every((file) => file.startsWith("test/postgres/") && file.endsWith(".pg.ts"))).toBe(true);
    const onDisk = readdirSync(join(ROOT, "test", "postgres")).filter((name) => name.endsWith(".pg.ts")).map((name) => `test/postgres/${name}`);
    expect(onDisk.sort()).toEqual([...POSTGRES_ONLY].sort());
  });

  test("a file that stops or stalls the cluster runs beside one of its own, and is in the suite", () => {
    const stopping = [...BACKEND_NEUTRAL, ...POSTGRES_ONLY].filter((file) => readFileSync(join(ROOT, file), "utf8").includes("helpers/pg-cluster.ts"));
    expect([...OWN_CLUSTER].sort()).toEqual(stopping.sort());
  });
});

describe("make test's runner (test/run-files.ts)", () => {
  test("runs every test file bun test finds: each test/*.test.ts, and none elsewhere to leave out", () => {
    const files = testFiles();
    expect(files.filter((file) => !/^test\/[^/]+\.test\.ts$/.test(file))).toEqual([]);
    expect(files).toEqual(readdirSync(join(ROOT, "test")).filter((name) => name.endsWith(".test.ts")).map((name) => `test/${name}`).sort());
  });

  test("starts the slowest files first, and files with no recorded time before them", () => {
    expect(slowestFirst(["test/a.test.ts", "test/b.test.ts", "test/c.test.ts", "test/d.test.ts"], { "test/a.test.ts": 10, "test/b.test.ts": 200, "test/d.test.ts": 50 }))
      .toEqual(["test/c.test.ts", "test/b.test.ts", "test/d.test.ts", "test/a.test.ts"]);
  });
});
