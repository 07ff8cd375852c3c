/**
 * A schema as plain data, read from a migrated SQLite file or PostgreSQL database, with the dialects'
 * words normalised (INTEGER/BIGINT, REAL/DOUBLE PRECISION, BLOB/BYTEA; a NOCASE-collated column and
 * fb_nocase(column) both `nocase(column)`), so two schemas compare with toEqual.
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { openDatabase } from "../../src/store/db.ts";
import { copiedTables } from "../../src/store/copied-tables.ts";

export interface TableShape {
  columns: Record<string, { type: string; nullable: boolean }>;
  primaryKey: string[];
  unique: string[][];
  foreignKeys: string[];
  indexes: Record<string, { columns: string[]; unique: boolean; partial: boolean }>;
}
export type SchemaShape = Record<string, TableShape>;

const TYPES: Record<string, string> = {
  integer: "integer",
  bigint: "integer",
  real: "real",
  "double precision": "real",
  text: "text",
  blob: "blob",
  bytea: "blob",
  xid8: "xid8",
  boolean: "boolean",
};
const typeOf = (raw: string) => TYPES[raw.toLowerCase()] ?? `unknown ${raw}`;

/** Every table of a migrated SQLite database. */
export function sqliteSchema(db: Database): SchemaShape {
  const tables = (db.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
  const out: SchemaShape = {};
  for (const table of tables) {
    const info = db.query("SELECT name, type, \"notnull\" AS nn, pk FROM pragma_table_info(?1)").all(table) as { name: string; type: string; nn: number; pk: number }[];
    const indexList = db.query("SELECT name, \"unique\" AS u, origin, partial FROM pragma_index_list(?1)").all(table) as { name: string; u: number; origin: string; partial: number }[];
    const columnsOf = (index: string) =>
      (db.query("SELECT name, coll, \"desc\" AS d FROM pragma_index_xinfo(?1) WHERE key = 1 ORDER BY seqno").all(index) as { name: string; coll: string; d: number }[]).map(
        (c) => (c.coll === "NOCASE" ? `nocase(${c.name})` : c.name) + (c.d ? " desc" : ""),
      );
    const fks = db.query("SELECT id, \"table\" AS parent, \"from\" AS col, \"to\" AS ref, on_delete FROM pragma_foreign_key_list(?1) ORDER BY id, seq").all(table) as { id: number; parent: string; col: string; ref: string; on_delete: string }[];
    const byId = Map.groupBy(fks, (fk) => fk.id);
    out[table] = {
      columns: Object.fromEntries(info.map((c) => [c.name, { type: typeOf(c.type), nullable: !(c.nn || c.pk > 0) }])),
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      unique: indexList.filter((i) => i.origin === "u").map((i) => columnsOf(i.name)).sort(),
      foreignKeys: [...byId.values()].map((parts) => `(${parts.map((p) => p.col).join(", ")}) -> ${parts[0]!.parent}(${parts.map((p) => p.ref).join(", ")}) on delete ${parts[0]!.on_delete.toLowerCase()}`).sort(),
      indexes: Object.fromEntries(indexList.filter((i) => i.origin === "c").map((i) => [i.name, { columns: columnsOf(i.name), unique: i.u === 1, partial: i.partial === 1 }])),
    };
  }
  return out;
}

/** Every table of a migrated PostgreSQL database's current schema. */
export async function pgSchema(sql: SQL): Promise<SchemaShape> {
  const columns = (await sql`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`) as { table_name: string; column_name: string; data_type: string; is_nullable: string }[];
  const indexes = (await sql`SELECT t.relname AS table_name, i.relname AS index_name, x.indisprimary AS primary, x.indisunique AS unique,
      x.indpred IS NOT NULL AS partial, c.contype AS constraint_type,
      array(SELECT pg_get_indexdef(x.indexrelid, k, true) || CASE WHEN x.indoption[k - 1] & 1 = 1 THEN ' desc' ELSE '' END
            FROM generate_series(1, x.indnkeyatts) AS k) AS columns
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype IN ('p', 'u')
    WHERE t.relnamespace = current_schema()::regnamespace`) as { table_name: string; index_name: string; primary: boolean; unique: boolean; partial: boolean; constraint_type: string | null; columns: string[] }[];
  const fks = (await sql`SELECT c.conrelid::regclass::text AS table_name, c.confrelid::regclass::text AS parent, c.confdeltype AS on_delete,
      array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS cols,
      array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS refs
    FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`) as { table_name: string; parent: string; on_delete: string; cols: string[]; refs: string[] }[];
  const onDelete: Record<string, string> = { a: "no action", c: "cascade", r: "restrict", n: "set null", d: "set default" };
  const out: SchemaShape = {};
  for (const c of columns) {
    out[c.table_name] ??= { columns: {}, primaryKey: [], unique: [], foreignKeys: [], indexes: {} };
    out[c.table_name]!.columns[c.column_name] = { type: typeOf(c.data_type), nullable: c.is_nullable === "YES" };
  }
  for (const i of indexes) {
    const table = out[i.table_name]!;
    const cols = i.columns.map((c) => c.replaceAll(`"`, "").replace(/^fb_nocase\((\w+)\)/, "nocase($1)"));
    if (i.primary) table.primaryKey = cols;
    else if (i.constraint_type === "u") table.unique.push(cols);
    else table.indexes[i.index_name] = { columns: cols, unique: i.unique, partial: i.partial };
  }
  for (const table of Object.values(out)) table.unique.sort();
  for (const fk of fks) out[fk.table_name]!.foreignKeys.push(`(${fk.cols.join(", ")}) -> ${fk.parent}(${fk.refs.join(", ")}) on delete ${onDelete[fk.on_delete]}`);
  for (const table of Object.values(out)) table.foreignKeys.sort();
  return out;
}

/**
 * The tables copy-to moves, as this build's schema has them (a fresh in-memory database, migrated).
 * @example for (const table of copiedTableList()) ...
 */
export function copiedTableList(): string[] {
  const db = openDatabase(":memory:", { create: true });
  try {
    return copiedTables(db);
  } finally {
    db.close();
  }
}

/** Two workspaces' events interleaved, as the build before event numbers stored them (global ids 1–5), in SQL both dialects take: for the migration that gives them numbers. */
export const EVENTS_OF_TWO_WORKSPACES = `INSERT INTO workspaces (id, slug, name, created_at) VALUES (2, 'north', 'North', '2025-05-01T00:00:00.000Z');
  INSERT INTO events (id, workspace_id, type, ingredient, payload, key_id, created_at) VALUES
    (1, 1, 'ingredient.added', 'Oats', '{}', NULL, '2025-05-01T00:00:01.000Z'),
    (2, 2, 'ingredient.added', 'Rye', '{}', NULL, '2025-05-01T00:00:02.000Z'),
    (3, 2, 'price.updated', 'Rye', '{}', NULL, '2025-05-01T00:00:03.000Z'),
    (4, 1, 'price.updated', 'Oats', '{}', NULL, '2025-05-01T00:00:04.000Z'),
    (5, 2, 'ingredient.added', 'Barley', '{}', NULL, '2025-05-01T00:00:05.000Z')`;
