import type { Database } from "bun:sqlite";

/**
 * A generation number that changes whenever the data may have changed: a commit by another connection
 * (an admin command in another process; SQLite's `PRAGMA data_version` tells) or by our own, which
 * the writer reports with `touch()`. Anything derived from the data is exact while the generation holds.
 * @example const gen = version.current(); if (gen !== cachedAt) rebuild();
 */
export class DataVersion {
  private generation = 0;
  private lastSeen = -1;
  private readonly pragma;

  constructor(db: Database) {
    this.pragma = db.prepare("PRAGMA data_version");
  }

  current(): number {
    const seen = (this.pragma.get() as { data_version: number }).data_version;
    if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      this.generation++;
    }
    return this.generation;
  }

  /** Finalize the statement, so the database can close completely (src/store/db.ts closeDatabase). */
  close(): void {
    this.pragma.finalize();
  }

  /** Our own connection committed: data_version does not change for the connection that wrote. */
  touch(): void {
    this.generation++;
  }
}
