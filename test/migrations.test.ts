/**
 * The migrations are one list in step: migrations/sqlite/ and migrations/pg/ hold the same numbered
 * file names, the list in src/store/migrations.ts names each once in order, and a step that one
 * dialect skips says why (a placeholder is comments only). The schemas themselves are compared on a
 * real PostgreSQL database by test/postgres/schema-in-step.pg.ts.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isPlaceholder, MIGRATION_STEPS, SCHEMA_VERSION } from "../src/store/migrations.ts";

const DIR = join(import.meta.dir, "../src/store/migrations");
const files = (dialect: string) => readdirSync(join(DIR, dialect)).filter((f) => f.endsWith(".sql")).map((f) => f.slice(0, -4)).sort();

describe("migrations in step", () => {
  test("both folders hold the same numbered steps, and the list names each once, in order", () => {
    const names = MIGRATION_STEPS.map((s) => s.name);
    expect(files("sqlite")).toEqual(names);
    expect(files("pg")).toEqual(names);
    expect(names.map((n) => Number(n.slice(0, 3)))).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  test("every step changes at least one dialect, and a placeholder says why in words", () => {
    for (const step of MIGRATION_STEPS) {
      expect({ step: step.name, changesSomething: !isPlaceholder(step.sqlite) || !isPlaceholder(step.pg) }).toEqual({ step: step.name, changesSomething: true });
      for (const sql of [step.sqlite, step.pg].filter(isPlaceholder)) expect(sql).toMatch(/^-- \d{3}: a placeholder\. \S.{20,}/);
    }
  });

  test("a placeholder is comments only; anything else is a statement", () => {
    expect(isPlaceholder("-- 009: a placeholder.\n-- why\n")).toBe(true);
    expect(isPlaceholder("-- 010\nCREATE TABLE t (id INTEGER);\n")).toBe(false);
  });
});
