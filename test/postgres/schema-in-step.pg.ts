/**
 * PostgreSQL only (make test-postgres): migration N is the same change in both dialects. A fresh SQLite
 * file and a fresh database, each migrated by this build, have the same tables, columns (types
 * normalised), nullability, keys, foreign keys and indexes, except the differences listed here with
 * their reasons; copy-to's tables are those both have. A database an earlier feedbase numbered on its
 * own (feedbase_schema 1 or 2) is translated to the common count once, without running a step twice.
 * Step 14 numbers a database's existing events per workspace.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { openDatabase } from "../../src/store/db.ts";
import { isPlaceholder, MIGRATION_STEPS, ONE_DIALECT_TABLES, SCHEMA_VERSION, SCRATCH_TABLES } from "../../src/store/migrations.ts";
import { openPostgres } from "../../src/store/pg/connect.ts";
import { tempDir } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";
import { copiedTableList, EVENTS_OF_TWO_WORKSPACES, pgSchema, type SchemaShape, sqliteSchema } from "../helpers/schema.ts";
import { eventsAfter } from "../../src/store/event-pages.ts";
import { listEvents } from "../../src/store/events.ts";

const open: SQL[] = [];
afterAll(async () => {
  for (const sql of open) await sql.close();
});

/** Columns only one dialect has, by design. */
const ONE_DIALECT_COLUMNS: Record<string, string> = {
  "deliveries.claimed_by": "PostgreSQL only: the lease of the instance sending it (several instances share one database)",
  "deliveries.claimed_until": "PostgreSQL only: the lease's end, epoch ms",
};

/** The schema without the intended differences. */
function common(schema: SchemaShape): SchemaShape {
  const out: SchemaShape = {};
  for (const [table, shape] of Object.entries(schema)) {
    if (table in ONE_DIALECT_TABLES) continue;
    out[table] = { ...shape, columns: Object.fromEntries(Object.entries(shape.columns).filter(([column]) => !(`${table}.${column}` in ONE_DIALECT_COLUMNS))) };
  }
  return out;
}

describe("migrations in step", () => {
  test("a fresh SQLite file and a fresh database, migrated, have the same schema but for the listed differences", async () => {
    const tmp = tempDir();
    try {
      const db = openDatabase(":memory:", { create: true });
      const sqlite = sqliteSchema(db);
      db.close();
      const sql = await openPostgres(databaseFor(tmp.dataPath)!, { max: 1 });
      open.push(sql);
      const pg = await pgSchema(sql);
      expect(common(pg)).toEqual(common(sqlite));
      // Each listed one-dialect table is really in exactly one of them.
      for (const table of Object.keys(ONE_DIALECT_TABLES)) expect({ table, in: [table in sqlite, table in pg].filter(Boolean).length }).toEqual({ table, in: 1 });
      for (const column of Object.keys(ONE_DIALECT_COLUMNS)) {
        const [table, name] = column.split(".") as [string, string];
        expect({ column, sqlite: name in sqlite[table]!.columns, pg: name in pg[table]!.columns }).toEqual({ column, sqlite: false, pg: true });
      }
      // copy-to moves every common table but the scratch ones.
      expect(copiedTableList().sort()).toEqual(Object.keys(common(sqlite)).filter((t) => !SCRATCH_TABLES.includes(t)).sort());
      expect(await sql`SELECT version, in_step FROM feedbase_schema`).toEqual([{ version: SCHEMA_VERSION, in_step: true }]);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);

  for (const [old, step] of [[1, 7], [2, 9]] as const) {
    test(`a database an earlier feedbase left at its own count ${old} is read as step ${step} and brought up to date`, async () => {
      const tmp = tempDir();
      try {
        const url = databaseFor(tmp.dataPath)!;
        // What the earlier build made: its file 1 (step 1 today), its file 2 (step 9), its own count.
        const applied = old === 1 ? [MIGRATION_STEPS[0]!.pg] : [MIGRATION_STEPS[0]!.pg, MIGRATION_STEPS[8]!.pg];
        psql(url, `${applied.join("\n")}\nCREATE TABLE feedbase_schema (version INTEGER NOT NULL);\nINSERT INTO feedbase_schema (version) VALUES (${old})`);
        const sql = await openPostgres(url, { max: 1 });
        open.push(sql);
        expect(await sql`SELECT version, in_step FROM feedbase_schema`).toEqual([{ version: SCHEMA_VERSION, in_step: true }]);
        expect(await sql`SELECT count(*)::int AS n FROM rate_counts`).toEqual([{ n: 0 }]);
        // Opened again, nothing is translated twice.
        const again = await openPostgres(url, { max: 1 });
        open.push(again);
        expect(await again`SELECT version, in_step FROM feedbase_schema`).toEqual([{ version: SCHEMA_VERSION, in_step: true }]);
      } finally {
        tmp.cleanup();
      }
    }, 30_000);
  }

  test("a database from before event numbers: an event keeps its id as its number, so a receiver's saved cursor names the same event", async () => {
    const tmp = tempDir();
    try {
      const url = databaseFor(tmp.dataPath)!;
      const before = MIGRATION_STEPS.findIndex((step) => step.pg.includes("ADD COLUMN number"));
      const applied = MIGRATION_STEPS.slice(0, before).map((step) => step.pg).filter((step) => !isPlaceholder(step));
      psql(url, `${applied.join("\n")}\nCREATE TABLE feedbase_schema (version INTEGER NOT NULL, in_step BOOLEAN NOT NULL);
        INSERT INTO feedbase_schema VALUES (${before}, true);\n${EVENTS_OF_TWO_WORKSPACES}`);
      const sql = await openPostgres(url, { max: 1 });
      open.push(sql);
      expect((await listEvents(sql, 1)).map((e) => [e.id, e.ingredient])).toEqual([
        [1, "Oats"],
        [4, "Oats"],
      ]);
      expect((await listEvents(sql, 2)).map((e) => [e.id, e.ingredient])).toEqual([
        [2, "Rye"],
        [3, "Rye"],
        [5, "Barley"],
      ]);
      expect((await eventsAfter(sql, 2, 3, 10)).events.map((e) => e.id)).toEqual([5]);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);
});
