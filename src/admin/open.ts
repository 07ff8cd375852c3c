import { openDatabase } from "../store/db.ts";
import type { DataLocation } from "../store/location.ts";
import { sqliteAdmin, type AdminStore } from "./ops.ts";

/**
 * Open where the data lives. Only `serve` and `demo` create a missing SQLite file; a PostgreSQL
 * database must exist (its schema is created or brought up to date on open).
 * @example const store = await openAdminStore({ kind: "sqlite", path: "feedbase.db" }, { create: false })
 */
export async function openAdminStore(location: DataLocation, options: { create: boolean }): Promise<AdminStore> {
  if (location.kind === "sqlite") return sqliteAdmin(openDatabase(location.path, { create: options.create }));
  const { openPgAdmin } = await import("./pg.ts");
  return openPgAdmin(location.url);
}
