/**
 * The one place that chooses the backend: SQLite (./sqlite.ts to serve) or PostgreSQL (./postgres.ts),
 * each loaded only when used, so a command on SQLite loads neither (nor the serving half).
 */
import { sqliteAdmin } from "../admin/ops.ts";
import { openDatabase } from "../store/db.ts";
import type { DataLocation } from "../store/location.ts";
import type { OpenOptions, ServedStore, Serving, Store } from "./store.ts";

/**
 * Open where the data lives: for a command, or (with `serve`) to serve it.
 * @example const store = await openStore({ kind: "sqlite", path: "feedbase.db" }, { create: false }); await store.listKeys(1)
 */
export function openStore(location: DataLocation, options: { create: boolean }): Promise<Store>;
export function openStore(location: DataLocation, options: { create: boolean; serve: Serving }): Promise<ServedStore>;
export async function openStore(location: DataLocation, options: OpenOptions): Promise<Store> {
  if (location.kind === "postgres") {
    const pg = await import("./postgres.ts");
    return options.serve ? pg.servePostgres(location.url, options.serve) : pg.openPostgresStore(location.url);
  }
  if (options.serve) return (await import("./sqlite.ts")).serveSqlite(location.path, options.create, options.serve);
  return { ...sqliteAdmin(openDatabase(location.path, { create: options.create })), kind: "sqlite" };
}
