/**
 * `feedbase copy-to`: a whole SQLite data file into an empty PostgreSQL database, in one transaction
 * on each side (a read snapshot of the file, so a server may keep running on it; one PostgreSQL
 * transaction, so a failure leaves the target as it was). Rows move as they are, ids and key hashes and
 * webhook secrets included, so existing keys and webhooks keep working; identity sequences then start
 * after the copied ids. "Empty" is what openPostgres makes: the schema and the default workspace, no
 * other row (docs/decisions.md#postgresql).
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { ConflictError } from "../../domain/errors.ts";
import { copiedTables } from "../copied-tables.ts";
import { PRICE_ENTRIES } from "../sqlite/price-history.ts";
import { notifyChange } from "./transaction.ts";

/** PostgreSQL allows 65,535 parameters per statement: a batch stays under it. */
const MAX_PARAMETERS = 60_000;

/** One table's rows on each side after the copy. */
export interface TableCount {
  table: string;
  sqlite: number;
  postgres: number;
}

/**
 * Refuse a target that holds data: anything beyond the default workspace the schema starts with.
 * @example await requireEmpty(tx) // throws ConflictError("The database is not empty: api_keys holds 3 rows ...")
 */
async function requireEmpty(tx: SQL, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const [{ n }] = (await tx`SELECT count(*)::int AS n FROM ${tx(table)}`) as [{ n: number }];
    // The schema starts with the default workspace and its standard nutrient definitions.
    const allowed =
      table === "workspaces"
        ? (await tx`SELECT 1 FROM workspaces WHERE slug = 'default' AND id = 1`).length
        : table === "nutrients"
          ? ((await tx`SELECT count(*)::int AS n FROM nutrients WHERE workspace_id = 1`) as [{ n: number }])[0].n
          : 0;
    if (n > allowed) {
      const what = table === "workspaces" ? `${n} workspaces, where a new one holds only "default"` : `${n} row${n === 1 ? "" : "s"} in ${table}`;
      throw new ConflictError(`The target database is not empty (${what}): copy-to fills only a new, empty database (createdb a new one)`);
    }
  }
}

/**
 * Copy every table of `db` into `sql`'s database in one transaction and compare the row counts; a
 * difference rolls everything back. `onTable` hears each table as it is done.
 * @example const counts = await copyToPostgres(db, sql, (t, n) => console.error(`copied ${t}: ${n}`))
 */
export async function copyToPostgres(db: Database, sql: SQL, onTable: (table: string, rows: number) => void): Promise<TableCount[]> {
  const tables = copiedTables(db);
  // A read transaction: every table comes from the same moment of the file.
  db.run("BEGIN");
  try {
    return await sql.begin(async (tx) => {
      // Nobody else writes the target while it is filled (a server started on it early waits).
      await tx.unsafe(`LOCK TABLE ${tables.join(", ")} IN EXCLUSIVE MODE`);
      await requireEmpty(tx, tables);
      await tx`DELETE FROM workspaces`;
      const counts: TableCount[] = [];
      for (const table of tables) {
        const copied = await copyTable(db, tx, table);
        onTable(table, copied);
        const [{ n }] = (await tx`SELECT count(*)::int AS n FROM ${tx(table)}`) as [{ n: number }];
        counts.push({ table, sqlite: copied, postgres: n });
      }
      // Tables whose `id` is an identity column: their sequences move past the copied ids.
      const identities = (await tx`SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES'`) as { table_name: string }[];
      for (const table of tables.filter((t) => identities.some((i) => i.table_name === t))) {
        await tx`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${tx(table)}), false)`;
      }
      const differ = counts.filter((c) => c.sqlite !== c.postgres);
      if (differ.length > 0) throw new ConflictError(`Row counts differ after the copy (${differ.map((c) => `${c.table}: ${c.sqlite} in the file, ${c.postgres} copied`).join("; ")}): nothing was copied`);
      await notifyChange(tx);
      return counts;
    });
  } finally {
    db.run("ROLLBACK");
  }
}

/** One table, in batches, in its stored order; returns how many rows the file holds. */
async function copyTable(db: Database, tx: SQL, table: string): Promise<number> {
  const columns = (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  const order = table === "delivery_attempts" ? "delivery_id, number" : table === "price_history" ? "id" : "rowid";
  // The history is two tables in the file: the indexed one and the log not yet folded into it (docs/decisions.md#price-history-and-formula-costs).
  const source = table === "price_history" ? `(${PRICE_ENTRIES})` : table;
  const perBatch = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  let batch: Record<string, unknown>[] = [];
  let total = 0;
  for (const row of db.query(`SELECT ${columns.join(", ")} FROM ${source} ORDER BY ${order}`).iterate() as IterableIterator<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length === perBatch) {
      await tx`INSERT INTO ${tx(table)} ${tx(batch, ...columns)}`;
      total += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await tx`INSERT INTO ${tx(table)} ${tx(batch, ...columns)}`;
  return total + batch.length;
}
