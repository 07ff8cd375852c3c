import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers/harness.ts";
import { BACKEND_NEUTRAL, NO_DATA, POSTGRES_ONLY, SQLITE_ONLY, WAITING } from "./postgres/suite.ts";

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
});
