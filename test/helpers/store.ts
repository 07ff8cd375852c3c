/**
 * Reading what a test's commands stored, on whichever backend the harness gave the data path: the
 * commands' own Store (src/open/store.ts) opened on the SQLite file or on the database that stands for
 * it, so a check reads through the same named operations on both.
 */
import { existsSync, readFileSync } from "node:fs";
import type { AdminStore } from "../../src/admin/ops.ts";
import { openStore } from "../../src/open/open.ts";
import { openDatabase } from "../../src/store/db.ts";
import { listEvents, type StoredEvent } from "../../src/store/events.ts";
import { databaseFor, dataLocation, pgTool, psql } from "./postgres.ts";

/**
 * The admin store of `dataPath`: its SQLite file (created when `create`), or the database standing for it.
 * @example const store = await openTestStore(tmp.dataPath, { create: true }); await store.importIngredients(1, csv, "csv", options)
 */
export async function openTestStore(dataPath: string, options: { create: boolean } = { create: false }): Promise<AdminStore> {
  return openStore(dataLocation(dataPath), options);
}

/**
 * Run `read` on the store of `dataPath` and close it.
 * @example const maize = await readStore(path, (s) => s.findIngredient(1, "Maize"))
 */
export async function readStore<T>(dataPath: string, read: (store: AdminStore) => T | Promise<T>): Promise<T> {
  const store = await openTestStore(dataPath);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/**
 * How many rows a table holds (for what no command lists, such as the events of a data path no server runs on).
 * @example await rowCount(path, "events") // 0
 */
export async function rowCount(dataPath: string, table: string): Promise<number> {
  const url = databaseFor(dataPath);
  if (url !== undefined) return Number(psql(url, `SELECT count(*) FROM ${table}`).trim());
  const db = openDatabase(dataPath, { create: false });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * A workspace's events as stored, oldest first, with what no command or route shows (the key that made
 * each, the payload's exact text): SQLite's `listEvents`, or the same columns read with psql.
 * @example storedEvents(path, 1).at(-1)?.keyId // "key_…"
 */
export function storedEvents(dataPath: string, workspaceId: number): StoredEvent[] {
  const url = databaseFor(dataPath);
  if (url !== undefined) {
    const json = psql(
      url,
      `SELECT coalesce(json_agg(json_build_object('id', number, 'type', type, 'ingredient', ingredient, 'payload', payload, 'keyId', key_id, 'createdAt', created_at) ORDER BY number), '[]')
       FROM events WHERE workspace_id = :'workspace'`,
      { workspace: String(workspaceId) },
    );
    return JSON.parse(json) as StoredEvent[];
  }
  const db = openDatabase(dataPath, { create: false });
  try {
    return listEvents(db, workspaceId);
  } finally {
    db.close();
  }
}

/**
 * Run SQL both backends take as it is, for rows no command makes any more (a row as an older version
 * stored it); on PostgreSQL it ends with the notification a change sends, so a running server reads afresh.
 * @example writeRaw(path, "DELETE FROM formulas WHERE id = 'old'")
 */
export function writeRaw(dataPath: string, script: string): void {
  const url = databaseFor(dataPath);
  if (url !== undefined) {
    psql(url, `BEGIN; ${script}; SELECT pg_notify('feedbase', ''); COMMIT`);
    return;
  }
  const db = openDatabase(dataPath, { create: false });
  try {
    db.run(script);
  } finally {
    db.close();
  }
}

/**
 * Whether feedbase has made its data at `dataPath`: the SQLite file exists, or the database standing
 * for it (made empty by the harness) holds feedbase's tables.
 * @example dataExists(tmp.dataPath) // false until serve or demo ran
 */
export function dataExists(dataPath: string): boolean {
  const url = databaseFor(dataPath);
  if (url === undefined) return existsSync(dataPath);
  return psql(url, "SELECT to_regclass('ingredients') IS NOT NULL").trim() === "t";
}

/**
 * Every byte stored for `dataPath`, to show what is not stored: the SQLite file, or a plain pg_dump of
 * the database standing for it.
 * @example expect(storedBytes(path).includes(key)).toBe(false)
 */
export function storedBytes(dataPath: string): Buffer {
  const url = databaseFor(dataPath);
  if (url === undefined) return readFileSync(dataPath);
  const dump = Bun.spawnSync([pgTool("pg_dump"), "--no-owner", url], { stdout: "pipe", stderr: "pipe" });
  if (dump.exitCode !== 0) throw new Error(`pg_dump failed (${dump.exitCode}): ${dump.stderr.toString().trim()}`);
  return dump.stdout;
}
