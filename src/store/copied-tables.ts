/**
 * The tables `copy-to` moves, read from the migrated SQLite schema rather than listed by hand: every
 * table both dialects have (src/store/migrations.ts names the ones only one has, and the scratch
 * tables), parents before children so each foreign key holds at its insert. A new migration's table is
 * copied without anyone remembering to add it here.
 */
import type { Database } from "bun:sqlite";
import { ONE_DIALECT_TABLES, SCRATCH_TABLES } from "./migrations.ts";

/**
 * The copied tables of `db`'s schema in foreign-key order (ties in the order the schema holds them).
 * @example copiedTables(db) // ["workspaces", "api_keys", "ingredients", ...]
 */
export function copiedTables(db: Database): string[] {
  const names = (db.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string }[])
    .map((row) => row.name)
    .filter((name) => !(name in ONE_DIALECT_TABLES) && !SCRATCH_TABLES.includes(name));
  const parents = new Map(
    names.map((name) => [name, (db.query(`SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?1)`).all(name) as { parent: string }[]).map((r) => r.parent).filter((p) => p !== name)]),
  );
  const ordered: string[] = [];
  while (ordered.length < names.length) {
    const next = names.find((name) => !ordered.includes(name) && parents.get(name)!.every((parent) => ordered.includes(parent)));
    if (next === undefined) throw new Error(`The foreign keys of ${names.filter((n) => !ordered.includes(n)).join(", ")} form a loop: copy-to cannot order them`);
    ordered.push(next);
  }
  return ordered;
}
