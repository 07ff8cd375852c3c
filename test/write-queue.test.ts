import { afterEach, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { openDatabase } from "../src/store/db.ts";
import { WriteQueue } from "../src/store/write-queue.ts";
import { tempDir } from "./helpers/harness.ts";

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function setup() {
  const tmp = tempDir();
  const db = openDatabase(tmp.dataPath, { create: true });
  db.run("CREATE TABLE t (x INTEGER UNIQUE)");
  const commits: boolean[] = [];
  const queue = new WriteQueue(db, (affectsReads) => commits.push(affectsReads));
  cleanup = () => {
    db.close();
    tmp.cleanup();
  };
  return { db, queue, commits, dataPath: tmp.dataPath };
}
const rows = (db: Database) => (db.query("SELECT x FROM t ORDER BY x").all() as { x: number }[]).map((r) => r.x);

describe("WriteQueue (group commit)", () => {
  test("writes of one turn share one commit; a failing write rolls back only itself", async () => {
    const { db, queue, commits } = setup();
    const results = await Promise.allSettled([
      queue.run(() => db.run("INSERT INTO t VALUES (1)")),
      queue.run(() => {
        db.run("INSERT INTO t VALUES (2)");
        db.run("INSERT INTO t VALUES (1)"); // UNIQUE violation: this write's savepoint is rolled back
      }),
      queue.run(() => db.run("INSERT INTO t VALUES (3)")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(rows(db)).toEqual([1, 3]);
    expect(commits).toEqual([true]);
  });

  test("a commit made only of writes no reader sees does not invalidate reads; a mixed one does", async () => {
    const { db, queue, commits } = setup();
    await queue.run(() => db.run("INSERT INTO t VALUES (10)"), false);
    await Promise.all([queue.run(() => db.run("INSERT INTO t VALUES (11)"), false), queue.run(() => db.run("INSERT INTO t VALUES (12)"))]);
    expect(commits).toEqual([false, true]);
  });

  test("when the commit itself cannot happen, every write of the batch is refused and nothing is kept", async () => {
    const { db, queue, dataPath } = setup();
    const other = openDatabase(dataPath, { create: false });
    other.run("PRAGMA busy_timeout = 0");
    db.run("PRAGMA busy_timeout = 0");
    other.run("BEGIN IMMEDIATE"); // another process holds the write lock
    const results = await Promise.allSettled([queue.run(() => db.run("INSERT INTO t VALUES (20)")), queue.run(() => db.run("INSERT INTO t VALUES (21)"))]);
    other.run("ROLLBACK");
    other.close();
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(rows(db)).toEqual([]);
  });

  test("a write that makes SQLite end the whole transaction (a full disk) fails the batch: nothing before it is kept, nothing after it runs outside it", async () => {
    const { db, queue, commits } = setup();
    db.run("PRAGMA max_page_count = 1"); // the file may not grow
    const results = await Promise.allSettled([
      queue.run(() => db.run("INSERT INTO t VALUES (40)")),
      queue.run(() => db.run("INSERT INTO t VALUES (randomblob(20000))")), // needs pages the file may not have
      queue.run(() => db.run("INSERT INTO t VALUES (41)")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["SQLITE_FULL", "SQLITE_FULL", "SQLITE_FULL"]);
    expect(rows(db)).toEqual([]);
    expect(commits).toEqual([]);
  });

  test("a write an answer waits on commits before the current microtasks end (Bun reads a pipelined request right after); bookkeeping rides along or waits for the turn's end", async () => {
    const { db, queue, commits } = setup();
    let turnEnded = false;
    setImmediate(() => (turnEnded = true));
    const bookkeeping = queue.runLater(() => db.run("INSERT INTO t VALUES (50)"), false);
    await queue.run(() => db.run("INSERT INTO t VALUES (51)"));
    expect(turnEnded).toBe(false);
    await bookkeeping;
    expect(commits).toEqual([true]);
    expect(rows(db)).toEqual([50, 51]);

    const alone = queue.runLater(() => db.run("INSERT INTO t VALUES (52)"), false);
    await Promise.resolve();
    expect(rows(db)).toEqual([50, 51]);
    await alone;
    expect(rows(db)).toEqual([50, 51, 52]);
    expect(commits).toEqual([true, false]);
  });

  test("close commits what is queued and refuses later writes", async () => {
    const { db, queue } = setup();
    const pending = queue.run(() => db.run("INSERT INTO t VALUES (30)"));
    queue.close();
    await pending;
    expect(rows(db)).toEqual([30]);
    await expect(queue.run(() => db.run("INSERT INTO t VALUES (31)"))).rejects.toThrow("closed");
  });
});
