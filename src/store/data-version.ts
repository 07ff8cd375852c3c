import type { Database } from "bun:sqlite";
import { closeSync, openSync, readSync } from "node:fs";

/** The WAL-index header's first copy: 48 bytes every commit rewrites (its frame count and checksums). */
const HEADER_BYTES = 48;

/**
 * A generation number that changes whenever the data may have changed: a commit by another connection
 * (an admin command in another process; SQLite's `PRAGMA data_version` tells) or by our own, which
 * the writer reports with `touch()`. Anything derived from the data is exact while the generation holds.
 *
 * The pragma opens a read transaction (two fcntl locks and an fstat, about 1 µs): asked on every request
 * it was the largest single cost of a cached read. Every commit to a WAL database rewrites the header of
 * the WAL index (the `-shm` file): 48 bytes read with one pread say whether any commit happened since the
 * last look, and the pragma runs only then. The descriptor stays open until the connection has closed:
 * closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.
 * docs/decisions.md#storage-and-operations.
 * @example const gen = version.current(); if (gen !== cachedAt) rebuild();
 */
export class DataVersion {
  private generation = 0;
  private lastSeen = -1;
  private readonly pragma;
  /** The `-shm` file, or null when there is none to read (not in WAL mode): then the pragma runs each time. */
  private shm: number | null = null;
  private readonly header = new Uint32Array(HEADER_BYTES / 4);
  private readonly seenHeader = new Uint32Array(HEADER_BYTES / 4);
  private readonly headerBytes = new Uint8Array(this.header.buffer);

  /** performance.now() of the last look at the header. */
  private lookedAt = -Infinity;

  /**
   * @param lookEveryMs looks at the file at most this often (the server: 1 ms, so a flood of cached
   *   reads pays one pread a millisecond, not one each; another process's commit then shows within a
   *   millisecond). Our own commits (`touch`) show at once whatever it is.
   */
  constructor(
    db: Database,
    dataPath: string,
    private readonly lookEveryMs = 0,
  ) {
    this.pragma = db.prepare("PRAGMA data_version");
    // The first read transaction makes SQLite create and map the -shm file.
    this.current();
    this.shm = openShm(dataPath);
  }

  current(): number {
    if (this.lookEveryMs > 0) {
      const now = performance.now();
      if (now - this.lookedAt < this.lookEveryMs) return this.generation;
      this.lookedAt = now;
    }
    if (this.shm !== null && !this.headerMoved()) return this.generation;
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

  /** After the connection has closed: only then may the -shm descriptor go (see above). */
  release(): void {
    if (this.shm !== null) closeSync(this.shm);
    this.shm = null;
  }

  /** Our own connection committed: data_version does not change for the connection that wrote. */
  touch(): void {
    this.generation++;
  }

  /**
   * Whether the header differs from the last look (remembered now). A torn read, during a commit's
   * write of the header, differs too: the pragma then decides, and the next look compares again.
   */
  private headerMoved(): boolean {
    if (readSync(this.shm!, this.headerBytes, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return true;
    const now = this.header;
    const seen = this.seenHeader;
    let moved = false;
    for (let i = 0; i < now.length; i++) {
      if (now[i] !== seen[i]) {
        seen[i] = now[i]!;
        moved = true;
      }
    }
    return moved;
  }
}

function openShm(dataPath: string): number | null {
  try {
    return openSync(`${dataPath}-shm`, "r");
  } catch {
    return null;
  }
}
