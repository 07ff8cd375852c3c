/**
 * The PostgreSQL schema's migrations, applied in order on connect; the table `feedbase_schema` records
 * how many have run. Append only, like the SQLite list (../migrations.ts): a new one is the next file.
 */
import m1 from "./migrations/001-schema.sql" with { type: "text" };
import m2 from "./migrations/002-rate-counts.sql" with { type: "text" };
import m3 from "./migrations/003-nutrients.sql" with { type: "text" };

export const PG_MIGRATIONS: readonly string[] = [m1, m2, m3];
