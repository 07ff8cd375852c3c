/**
 * The one place that chooses the backend: SQLite (./sqlite.ts) or PostgreSQL (./postgres.ts, loaded only
 * for a `postgres://` URL, so an SQLite start does not pay for its modules).
 */
import type { DataLocation } from "../store/location.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { OpenOptions, Store } from "./store.ts";

/**
 * Open where the data lives.
 * @example const store = await openStore({ kind: "sqlite", path: "feedbase.db" }, { create: false }); await store.listKeys(1)
 */
export async function openStore(location: DataLocation, options: OpenOptions): Promise<Store> {
  if (location.kind === "sqlite") return openSqliteStore(location.path, options);
  return (await import("./postgres.ts")).openPostgresStore(location.url, options);
}
