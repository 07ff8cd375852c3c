/**
 * The schema's migrations, one list for both dialects: step N is the same change on SQLite
 * (migrations/sqlite/NNN-name.sql) and on PostgreSQL (migrations/pg/NNN-name.sql), so "schema N"
 * means one set of tables whichever backend holds it. SQLite's `PRAGMA user_version` and
 * PostgreSQL's `feedbase_schema.version` both count the steps applied. A step one dialect does not
 * need is a placeholder file there: comments only, whose words say why (docs/decisions.md#migrations-in-step).
 * Append only: a shipped step is never edited; a new one is two files and one more line here.
 */
import s1 from "./migrations/sqlite/001-workspaces-keys-ingredients.sql" with { type: "text" };
import s2 from "./migrations/sqlite/002-formulas.sql" with { type: "text" };
import s3 from "./migrations/sqlite/003-webhooks-deliveries.sql" with { type: "text" };
import s4 from "./migrations/sqlite/004-readiness-probe.sql" with { type: "text" };
import s5 from "./migrations/sqlite/005-price-history.sql" with { type: "text" };
import s6 from "./migrations/sqlite/006-delivery-attempts.sql" with { type: "text" };
import s7 from "./migrations/sqlite/007-price-history-without-foreign-key.sql" with { type: "text" };
import s8 from "./migrations/sqlite/008-price-log.sql" with { type: "text" };
import s9 from "./migrations/sqlite/009-rate-counts.sql" with { type: "text" };
import s10 from "./migrations/sqlite/010-ingredient-co2e.sql" with { type: "text" };
import s11 from "./migrations/sqlite/011-plans.sql" with { type: "text" };
import s12 from "./migrations/sqlite/012-nutrients.sql" with { type: "text" };
import s13 from "./migrations/sqlite/013-analyses.sql" with { type: "text" };
import s14 from "./migrations/sqlite/014-event-numbers.sql" with { type: "text" };
import s15 from "./migrations/sqlite/015-events-without-ingredient-index.sql" with { type: "text" };
import p1 from "./migrations/pg/001-workspaces-keys-ingredients.sql" with { type: "text" };
import p2 from "./migrations/pg/002-formulas.sql" with { type: "text" };
import p3 from "./migrations/pg/003-webhooks-deliveries.sql" with { type: "text" };
import p4 from "./migrations/pg/004-readiness-probe.sql" with { type: "text" };
import p5 from "./migrations/pg/005-price-history.sql" with { type: "text" };
import p6 from "./migrations/pg/006-delivery-attempts.sql" with { type: "text" };
import p7 from "./migrations/pg/007-price-history-without-foreign-key.sql" with { type: "text" };
import p8 from "./migrations/pg/008-price-log.sql" with { type: "text" };
import p9 from "./migrations/pg/009-rate-counts.sql" with { type: "text" };
import p10 from "./migrations/pg/010-ingredient-co2e.sql" with { type: "text" };
import p11 from "./migrations/pg/011-plans.sql" with { type: "text" };
import p12 from "./migrations/pg/012-nutrients.sql" with { type: "text" };
import p13 from "./migrations/pg/013-analyses.sql" with { type: "text" };
import p14 from "./migrations/pg/014-event-numbers.sql" with { type: "text" };
import p15 from "./migrations/pg/015-events-without-ingredient-index.sql" with { type: "text" };

/** One step: its file name (the same in both folders) and its SQL in each dialect. */
export interface MigrationStep {
  name: string;
  sqlite: string;
  pg: string;
}

export const MIGRATION_STEPS: readonly MigrationStep[] = [
  { name: "001-workspaces-keys-ingredients", sqlite: s1, pg: p1 },
  { name: "002-formulas", sqlite: s2, pg: p2 },
  { name: "003-webhooks-deliveries", sqlite: s3, pg: p3 },
  { name: "004-readiness-probe", sqlite: s4, pg: p4 },
  { name: "005-price-history", sqlite: s5, pg: p5 },
  { name: "006-delivery-attempts", sqlite: s6, pg: p6 },
  { name: "007-price-history-without-foreign-key", sqlite: s7, pg: p7 },
  { name: "008-price-log", sqlite: s8, pg: p8 },
  { name: "009-rate-counts", sqlite: s9, pg: p9 },
  { name: "010-ingredient-co2e", sqlite: s10, pg: p10 },
  { name: "011-plans", sqlite: s11, pg: p11 },
  { name: "012-nutrients", sqlite: s12, pg: p12 },
  { name: "013-analyses", sqlite: s13, pg: p13 },
  { name: "014-event-numbers", sqlite: s14, pg: p14 },
  { name: "015-events-without-ingredient-index", sqlite: s15, pg: p15 },
];

/** The schema version this build brings a database to, on either backend. */
export const SCHEMA_VERSION = MIGRATION_STEPS.length;

/**
 * True when `sql` holds no statement (a placeholder step): it is skipped rather than sent, since an
 * empty statement is an error to bun:sqlite.
 * @example isPlaceholder("-- 009: a placeholder.\n") // true
 */
export function isPlaceholder(sql: string): boolean {
  return sql.replace(/--[^\n]*/g, "").trim() === "";
}

/**
 * Tables only one dialect has, by design, and why; every other table is in both with the same columns
 * (test/postgres/schema-in-step.pg.ts compares them). `copy-to` copies the tables both have.
 */
export const ONE_DIALECT_TABLES: Readonly<Record<string, string>> = {
  price_log: "SQLite only: price changes append here and fold into price_history (copy-to reads both as price_history)",
  rate_counts: "PostgreSQL only: each key's counts shared between instances",
  feedbase_schema: "PostgreSQL only: the schema version (SQLite keeps it in PRAGMA user_version)",
};

/** Tables in both schemas that hold no data of the mill's (empty between readiness probes). */
export const SCRATCH_TABLES: readonly string[] = ["readiness_probe"];
